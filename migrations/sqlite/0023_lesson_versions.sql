CREATE TABLE `lesson_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lesson_id` integer NOT NULL,
	`kind` text NOT NULL,
	`instruction` text DEFAULT '' NOT NULL,
	`restored_from` integer,
	`title` text NOT NULL,
	`theory` text NOT NULL,
	`markdown` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lesson_versions_lesson_idx` ON `lesson_versions` (`lesson_id`,`id`);