import { z } from 'zod';
import { outlineFromSpec, type OutlineTopic } from '~/domain/outline';
import { DEFAULT_LESSONS_PER_TOPIC, MAX_TOPICS } from '~/domain/plans';
import { stripCodeFences } from '~/utils/markdown.server';
import { AiOutputError, callTool, TEACHER_SYSTEM, type CallOptions } from './ai.server';
import {
  lessonsPerTopicOf,
  memberTopics,
  outlineKey,
  outlinePrompt,
  outlineSize,
  outlineTool,
  type OutlineRequest,
  type PlannedTopic,
} from './ai-outline-prompt.server';

/**
 * Course outlines from the model: asked for with the outline tool (ai-outline-prompt.server.ts),
 * and accepted only once cleaned and validated in the API's course shape. The tool calls a
 * topic's lessons `subtopics`; `outlineFromSpec` turns them into lessons as they are accepted.
 */

const title = z.string().trim().min(1).max(200);
const topicsSchema = z
  .array(
    z.object({
      title,
      subtopics: z.array(z.object({ title })).min(1),
    }),
  )
  .min(1);

/** JSON text (possibly fenced) becomes a value; anything else passes through. */
function fromJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(stripCodeFences(value));
  } catch {
    throw new AiOutputError('The outline is not valid JSON');
  }
}

/**
 * Accepts the model's answer only when it is an outline in the API's course shape
 * (`{ "<main topic>": [{ title, subtopics: [{ title }] }] }`, as an object or
 * as JSON text with or without code fences) with at least the topics asked
 * for. Extra topics and lessons are cut; the member's own topics are put
 * in when the model left one out.
 */
export function parseOutline(raw: unknown, request: OutlineRequest): OutlineTopic[] {
  const value = fromJsonText(raw);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new AiOutputError('The outline is not an object keyed by the main topic');
  const entries = Object.entries(value as Record<string, unknown>);
  const entry =
    entries.find(([key]) => key.trim().toLowerCase() === outlineKey(request.mainTopic)) ??
    (entries.length === 1 ? entries[0] : undefined);
  if (!entry) throw new AiOutputError('The outline is not keyed by the main topic');
  const parsed = topicsSchema.safeParse(fromJsonText(entry[1]));
  if (!parsed.success)
    throw new AiOutputError(`The outline has the wrong shape: ${parsed.error.issues[0]?.message}`);
  // An outline that follows the member's material or instruction may have fewer topics.
  const exact = !request.material && !request.rewrite;
  if (exact && parsed.data.length < request.topicCount)
    throw new AiOutputError(
      `The outline has ${parsed.data.length} topics instead of ${request.topicCount}`,
    );
  const written = outlineFromSpec(parsed.data);
  const capped = capOutline(
    request.material?.topics && !request.rewrite
      ? coverMaterial(written, request.material.topics)
      : written,
    outlineSize(request),
    lessonsPerTopicOf(request),
  );
  // A rewrite may drop the member's first topics if they asked it to.
  return request.rewrite ? capped : includeMemberTopics(capped, request);
}

/** The first `maxTopics` topics, each with at most `maxLessons` lessons (the prompt's most). */
function capOutline(topics: OutlineTopic[], maxTopics: number, maxLessons: number): OutlineTopic[] {
  return topics.slice(0, maxTopics).map((topic) => ({
    title: topic.title,
    lessons: topic.lessons.slice(0, maxLessons).map((lesson) => ({ title: lesson.title })),
  }));
}

const wordsIn = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/**
 * The outline's material topics are the planned ones (ADR 0058), whatever the model left out or
 * merged: each keeps the model's title when the model's topic at its place is about its sections
 * (shares a word with their headings), and the planned lessons, the sections' headings. The
 * model's other topics (the member's, after the material's) follow.
 */
function coverMaterial(written: OutlineTopic[], planned: PlannedTopic[]): OutlineTopic[] {
  const topics = planned.map((plan, i) => {
    const title = written[i]?.title;
    const headingWords = wordsIn(plan.headings.join(' '));
    const about = title !== undefined && [...wordsIn(title)].some((w) => headingWords.has(w));
    return {
      title:
        plan.headings.length === 1
          ? plan.headings[0]!
          : about
            ? title
            : `${plan.headings[0]} – ${plan.headings[plan.headings.length - 1]}`.slice(0, 200),
      lessons: plan.lessons.map((lesson) => ({ title: lesson })),
    };
  });
  const isPlanned = (topic: OutlineTopic) =>
    planned.some((plan) => plan.headings.some((h) => mentions(topic, h)));
  return [...topics, ...written.slice(planned.length).filter((topic) => !isPlanned(topic))];
}

function mentions(topic: OutlineTopic, wanted: string) {
  const needle = wanted.toLowerCase();
  return (
    topic.title.toLowerCase().includes(needle) ||
    topic.lessons.some((lesson) => lesson.title.toLowerCase().includes(needle))
  );
}

const memberTopic = (member: string, mainTopic: string): OutlineTopic => ({
  title: member,
  lessons: [{ title: `${member} in ${mainTopic}` }, { title: `${member} by Example` }],
});

/**
 * Puts in the member's topics the model forgot: after the others while the outline has room for
 * them (one that follows material may be short), else in place of topics from the end; never in
 * place of the material's topics, which are the outline (ADR 0047).
 */
function includeMemberTopics(topics: OutlineTopic[], request: OutlineRequest): OutlineTopic[] {
  const wanted = memberTopics(request);
  const missing = wanted.filter((s) => !topics.some((topic) => mentions(topic, s)));
  const result = [...topics];
  while (missing.length > 0 && result.length < outlineSize(request))
    result.push(memberTopic(missing.shift()!, request.mainTopic));
  if (request.material) return result;
  for (let i = result.length - 1; i >= 0 && missing.length > 0; i -= 1) {
    if (wanted.some((s) => mentions(result[i]!, s))) continue;
    result[i] = memberTopic(missing.shift()!, request.mainTopic);
  }
  return result;
}

const askForOutline = (prompt: string, options: CallOptions) =>
  callTool(
    {
      purpose: 'outline',
      system: TEACHER_SYSTEM,
      messages: [{ role: 'user', content: prompt }],
      tool: outlineTool,
    },
    options,
  );

/** An outline with exactly `topicCount` topics that includes the member's sub-topics. */
export async function generateOutline(
  request: OutlineRequest,
  options: CallOptions = {},
): Promise<OutlineTopic[]> {
  return parseOutline(await askForOutline(outlinePrompt(request), options), request);
}

/**
 * /api/prompt: an outline for a free-form prompt, in the API's course shape (an
 * object keyed by the lower-cased main topic), validated like any outline.
 */
export async function outlineForPrompt(
  prompt: string,
  options: CallOptions = {},
): Promise<Record<string, OutlineTopic[]>> {
  return parsePromptOutline(await askForOutline(prompt, options));
}

/**
 * The model's answer to a free-form prompt, cut to what /api/course accepts
 * (MAX_TOPICS topics of DEFAULT_LESSONS_PER_TOPIC lessons), so it can be saved as it is.
 */
export function parsePromptOutline(answer: unknown): Record<string, OutlineTopic[]> {
  const raw = fromJsonText(answer);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new AiOutputError('The outline is not an object keyed by the main topic');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length !== 1) throw new AiOutputError('The outline must have one main topic');
  const [key, value] = entries[0]!;
  const parsed = topicsSchema.safeParse(fromJsonText(value));
  if (!parsed.success) throw new AiOutputError('The outline has the wrong shape');
  return {
    [key.trim().toLowerCase()]: capOutline(
      outlineFromSpec(parsed.data),
      MAX_TOPICS,
      DEFAULT_LESSONS_PER_TOPIC,
    ),
  };
}
