-- One word per idea (ADR 0052): an outline's topics hold `lessons`. Outlines stored before the
-- rename hold them as `subtopics`: renamed here, each topic's other fields and the topics' order
-- kept. Outlines without a result, or already in the new shape, are left as they are.
UPDATE `outlines` SET `result` = (
	SELECT json_group_array(
		CASE WHEN `topic`.`type` = 'object' AND json_type(`topic`.`value`, '$.subtopics') IS NOT NULL
			THEN json_remove(
				json_set(`topic`.`value`, '$.lessons', json(`topic`.`value` -> '$.subtopics')),
				'$.subtopics'
			)
			ELSE json(`topic`.`value`)
		END
		ORDER BY `topic`.`key`
	)
	FROM json_each(`outlines`.`result`) AS `topic`
)
WHERE json_valid(`result`) AND json_type(`result`) = 'array' AND EXISTS (
	SELECT 1 FROM json_each(`outlines`.`result`) AS `topic`
	WHERE `topic`.`type` = 'object' AND json_type(`topic`.`value`, '$.subtopics') IS NOT NULL
);
