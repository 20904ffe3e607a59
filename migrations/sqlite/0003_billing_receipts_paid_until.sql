CREATE TABLE `receipts` (
	`number` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` text NOT NULL,
	`user_id` text NOT NULL,
	`provider_payment_key` text NOT NULL,
	`plan` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`paid_at` integer NOT NULL,
	`next_billing_at` integer,
	`emailed_at` integer,
	`email_claimed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_payment_unique` ON `receipts` (`subscription_id`,`provider_payment_key`);--> statement-breakpoint
CREATE INDEX `receipts_user_idx` ON `receipts` (`user_id`,`number`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `paid_until` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `customer` text;--> statement-breakpoint
CREATE INDEX `subscriptions_paid_until_idx` ON `subscriptions` (`paid_until`);