-- Authoring (ADR 0032): outlines the member edits and asks to be rewritten, and the member's own
-- material a course is written from, with the sections each lesson drew on.
ALTER TABLE `outlines` ADD `rewrite_instruction` text;
--> statement-breakpoint
ALTER TABLE `outlines` ADD `rewrite_round` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `outlines` ADD `revision` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `lessons` ADD `sources` text;
--> statement-breakpoint
CREATE TABLE `source_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`outline_id` text NOT NULL,
	`course_id` text,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`byte_size` integer NOT NULL,
	`page_count` integer,
	`char_count` integer NOT NULL,
	`sections` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`outline_id`) REFERENCES `outlines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `source_documents_outline_unique` ON `source_documents` (`outline_id`);
--> statement-breakpoint
CREATE INDEX `source_documents_course_idx` ON `source_documents` (`course_id`);
--> statement-breakpoint
CREATE INDEX `source_documents_user_idx` ON `source_documents` (`user_id`);
