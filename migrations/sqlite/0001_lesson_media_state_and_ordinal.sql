DROP INDEX `lessons_course_idx`;--> statement-breakpoint
ALTER TABLE `lessons` ADD `ordinal` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `lessons` ADD `media_state` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
CREATE INDEX `lessons_course_idx` ON `lessons` (`course_id`,`ordinal`);