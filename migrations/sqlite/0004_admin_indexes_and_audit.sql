CREATE TABLE `admin_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` text,
	`actor_email` text NOT NULL,
	`action` text NOT NULL,
	`detail` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `admin_audit_created_idx` ON `admin_audit` (`created_at`);--> statement-breakpoint
DROP INDEX `users_plan_idx`;--> statement-breakpoint
CREATE INDEX `users_created_idx` ON `users` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);--> statement-breakpoint
CREATE INDEX `users_plan_idx` ON `users` (`plan`,`created_at`);--> statement-breakpoint
CREATE INDEX `contacts_created_idx` ON `contacts` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `courses_created_idx` ON `courses` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `courses_type_idx` ON `courses` (`type`);--> statement-breakpoint
CREATE INDEX `lessons_unfinished_idx` ON `lessons` (`state`,`attempts`) WHERE "lessons"."state" != 'done';