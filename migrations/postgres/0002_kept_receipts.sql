CREATE TABLE "kept_receipts" (
	"number" integer PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_key" text NOT NULL,
	"plan" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"paid_at" timestamp (3) with time zone NOT NULL,
	"country" text,
	"account_deleted_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kept_receipts_paid_idx" ON "kept_receipts" USING btree ("paid_at");