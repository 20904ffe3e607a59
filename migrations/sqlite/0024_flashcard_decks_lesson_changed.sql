ALTER TABLE `flashcard_decks` ADD `lesson_changed` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- ADR 0061: a deck whose lesson was edited, restored or re-written after its cards were written
-- is offered for rewriting; decks stored before this column learn it from the lesson's versions.
UPDATE `flashcard_decks` SET `lesson_changed` = 1
WHERE `state` = 'done' AND EXISTS (
	SELECT 1 FROM `lesson_versions` `v`
	WHERE `v`.`lesson_id` = `flashcard_decks`.`lesson_id` AND `v`.`kind` <> 'generated'
		AND `v`.`created_at` > `flashcard_decks`.`generated_at`
);
