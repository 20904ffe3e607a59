CREATE TABLE `kept_receipts` (
	`number` integer PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`provider_payment_key` text NOT NULL,
	`plan` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`paid_at` integer NOT NULL,
	`country` text,
	`account_deleted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kept_receipts_paid_idx` ON `kept_receipts` (`paid_at`);