-- The reconciliation re-checks every live subscription, the longest unchecked first (ADR 0037).
ALTER TABLE `subscriptions` ADD `checked_at` integer;
--> statement-breakpoint
CREATE INDEX `subscriptions_checked_idx` ON `subscriptions` (`checked_at`);
--> statement-breakpoint
-- Demo mode only: the simulated providers' records, safe under writes from several processes.
CREATE TABLE `demo_provider_records` (
	`provider` text NOT NULL,
	`kind` text NOT NULL,
	`id` text NOT NULL,
	`data` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`provider`, `kind`, `id`)
);
--> statement-breakpoint
-- Demo mode only: the simulated providers' webhooks, retried with backoff until delivered.
CREATE TABLE `demo_webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`body` text NOT NULL,
	`headers` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`delivered_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `demo_webhook_deliveries_due_idx` ON `demo_webhook_deliveries` (`next_attempt_at`) WHERE `next_attempt_at` is not null;
