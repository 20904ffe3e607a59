-- One word per idea (ADR 0052): an outline's topics hold `lessons`. Outlines stored before the
-- rename hold them as `subtopics`: renamed here, each topic's other fields and the topics' order
-- kept. Outlines without a result, or already in the new shape, are left as they are.
UPDATE "outlines" SET "result" = (
	SELECT jsonb_agg(
		CASE WHEN jsonb_typeof("topic"."value") = 'object' AND "topic"."value" -> 'subtopics' IS NOT NULL
			THEN ("topic"."value" - 'subtopics')
				|| jsonb_build_object('lessons', "topic"."value" -> 'subtopics')
			ELSE "topic"."value"
		END
		ORDER BY "topic"."position"
	)
	FROM jsonb_array_elements("outlines"."result") WITH ORDINALITY AS "topic"("value", "position")
)
WHERE jsonb_typeof("result") = 'array' AND EXISTS (
	SELECT 1
	FROM jsonb_array_elements(CASE WHEN jsonb_typeof("outlines"."result") = 'array' THEN "outlines"."result" ELSE '[]'::jsonb END) AS "topic"("value")
	WHERE jsonb_typeof("topic"."value") = 'object' AND "topic"."value" -> 'subtopics' IS NOT NULL
);
