-- The language a course is written in (app/domain/languages.ts); existing rows were English.
ALTER TABLE `outlines` ADD `language` text DEFAULT 'en' NOT NULL;
--> statement-breakpoint
ALTER TABLE `courses` ADD `language` text DEFAULT 'en' NOT NULL;
