-- Pages of a member's courses, newest first, continue after (created_at, id) of the last one
-- (keyset paging): the id in the index makes that a seek, not a scan of equal timestamps.
DROP INDEX IF EXISTS `courses_user_created_idx`;
--> statement-breakpoint
CREATE INDEX `courses_user_created_id_idx` ON `courses` (`user_id`,`created_at`,`id`);
