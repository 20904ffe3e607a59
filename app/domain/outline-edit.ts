import { forbiddenCharactersMessage, hasForbiddenCharacters } from '~/utils/text';
import { MAX_TOPICS, mostTopics, PAID_ONLY_MESSAGE, type PlanDefinition } from './plans';
import { REQUIRED_FIELDS_MESSAGE } from '~/utils/messages';
import type { Outline, OutlineTopic } from './outline';

/**
 * Editing an outline on /topics before Generate Course (ADR 0032): the operations the page's
 * buttons perform and the one rule every edited outline must pass. Browser-safe, so the page
 * refuses an edit at once with the same message the server gives when it is bypassed.
 */

/** Topic and lesson titles: as long as the AI's own titles may be. */
const MAX_OUTLINE_TITLE_CHARS = 200;
/** A one-line instruction for "Rewrite the outline" (as for a lesson's regeneration). */
export const MAX_REWRITE_INSTRUCTION_CHARS = 300;

const NEW_TOPIC_TITLE = 'New topic';
const NEW_LESSON_TITLE = 'New lesson';

const tooManyTopicsMessage = (max: number) => `A course has at most ${max} topics`;
const tooManyLessonsMessage = (max: number) =>
  `A topic has at most ${max} ${max === 1 ? 'lesson' : 'lessons'}`;
const NO_TOPICS_MESSAGE = 'A course needs at least one topic';
const NO_LESSONS_MESSAGE = 'A topic needs at least one lesson';
export const OUTLINE_REWRITING_MESSAGE = 'The outline is being rewritten: please wait for it';
export const OUTLINE_USED_MESSAGE = 'The course has already been generated from this outline';
const titleTooLongMessage = (max: number) => `Please keep each title under ${max} characters`;

export type OutlineOp =
  | { kind: 'add-topic' }
  | { kind: 'add-lesson'; topic: number }
  | { kind: 'remove-topic'; topic: number }
  | { kind: 'remove-lesson'; topic: number; lesson: number }
  | { kind: 'move-topic'; topic: number; by: -1 | 1 }
  | { kind: 'move-lesson'; topic: number; lesson: number; by: -1 | 1 };

function moved<T>(items: T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) return items;
  const copy = [...items];
  [copy[index], copy[target]] = [copy[target]!, copy[index]!];
  return copy;
}

const withTopic = (
  outline: Outline,
  index: number,
  change: (topic: OutlineTopic) => OutlineTopic,
) => outline.map((topic, i) => (i === index ? change(topic) : topic));

/** The outline after one button's operation; an operation on an item that is not there changes nothing. */
export function applyOutlineOp(outline: Outline, op: OutlineOp): Outline {
  switch (op.kind) {
    case 'add-topic':
      return [...outline, { title: NEW_TOPIC_TITLE, lessons: [{ title: NEW_LESSON_TITLE }] }];
    case 'add-lesson':
      return withTopic(outline, op.topic, (topic) => ({
        ...topic,
        lessons: [...topic.lessons, { title: NEW_LESSON_TITLE }],
      }));
    case 'remove-topic':
      return outline.filter((_, i) => i !== op.topic);
    case 'remove-lesson':
      return withTopic(outline, op.topic, (topic) => ({
        ...topic,
        lessons: topic.lessons.filter((_, i) => i !== op.lesson),
      }));
    case 'move-topic':
      return moved(outline, op.topic, op.by);
    case 'move-lesson':
      return withTopic(outline, op.topic, (topic) => ({
        ...topic,
        lessons: moved(topic.lessons, op.lesson, op.by),
      }));
  }
}

/** Renames the topic (lesson undefined) or one of its lessons. */
export function renameInOutline(
  outline: Outline,
  topic: number,
  lesson: number | undefined,
  title: string,
): Outline {
  return withTopic(outline, topic, (current) =>
    lesson === undefined
      ? { ...current, title }
      : {
          ...current,
          lessons: current.lessons.map((s, i) => (i === lesson ? { title } : s)),
        },
  );
}

export interface TopicLimit {
  max: number;
  message: string;
  /** The most lessons one topic may have: what the AI gives a topic on the plan (ADR 0055). */
  lessonsPerTopic: number;
}

/** The most topics the member's plan allows, the message for one more, and lessons per topic. */
export function topicLimitOf(plan: PlanDefinition): TopicLimit {
  const max = mostTopics(plan);
  return {
    max,
    message: max < MAX_TOPICS ? PAID_ONLY_MESSAGE : tooManyTopicsMessage(max),
    lessonsPerTopic: plan.limits.lessonsPerTopic,
  };
}

/**
 * The one rule for an edited outline, on the page and on the server: between one topic and the
 * plan's most (a free member's sixth topic is 'For paid members only'), one to the plan's
 * lessons per topic each, every title filled in, one line, at most
 * MAX_OUTLINE_TITLE_CHARS characters and free of junk characters. Null when the outline passes,
 * else the message to show.
 */
export function outlineEditRefusal(outline: Outline, topics: TopicLimit): string | null {
  if (outline.length === 0) return NO_TOPICS_MESSAGE;
  if (outline.length > topics.max) return topics.message;
  for (const topic of outline) {
    if (topic.lessons.length === 0) return NO_LESSONS_MESSAGE;
    if (topic.lessons.length > topics.lessonsPerTopic)
      return tooManyLessonsMessage(topics.lessonsPerTopic);
    for (const title of [topic.title, ...topic.lessons.map((s) => s.title)]) {
      if (!title.trim()) return REQUIRED_FIELDS_MESSAGE;
      if (title.length > MAX_OUTLINE_TITLE_CHARS)
        return titleTooLongMessage(MAX_OUTLINE_TITLE_CHARS);
      if (hasForbiddenCharacters(title, { singleLine: true }))
        return forbiddenCharactersMessage('A title');
    }
  }
  return null;
}

/** Titles trimmed and in one Unicode form, as stored. */
export function normalizeOutline(outline: Outline): Outline {
  const clean = (title: string) => title.trim().normalize('NFC');
  return outline.map((topic) => ({
    title: clean(topic.title),
    lessons: topic.lessons.map((s) => ({ title: clean(s.title) })),
  }));
}

export const sameOutline = (a: Outline, b: Outline) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A button's operation as the page's form names it ("up-lesson:1:2", "add-topic"; "save" keeps
 * the typed titles): the same value runs in the browser and, without JavaScript, on the server.
 */
export function parseOutlineOp(value: unknown): OutlineOp | 'save' | null {
  if (value === 'save') return 'save';
  if (typeof value !== 'string') return null;
  const [name, ...rest] = value.split(':');
  const numbers = rest.map(Number);
  if (numbers.some((n) => !Number.isInteger(n) || n < 0 || n > 100)) return null;
  const [topic, lesson] = numbers;
  switch (name) {
    case 'add-topic':
      return numbers.length === 0 ? { kind: 'add-topic' } : null;
    case 'add-lesson':
      return numbers.length === 1 ? { kind: 'add-lesson', topic: topic! } : null;
    case 'remove-topic':
      return numbers.length === 1 ? { kind: 'remove-topic', topic: topic! } : null;
    case 'up-topic':
    case 'down-topic':
      return numbers.length === 1
        ? { kind: 'move-topic', topic: topic!, by: name === 'up-topic' ? -1 : 1 }
        : null;
    case 'remove-lesson':
      return numbers.length === 2
        ? { kind: 'remove-lesson', topic: topic!, lesson: lesson! }
        : null;
    case 'up-lesson':
    case 'down-lesson':
      return numbers.length === 2
        ? { kind: 'move-lesson', topic: topic!, lesson: lesson!, by: name === 'up-lesson' ? -1 : 1 }
        : null;
    default:
      return null;
  }
}

/**
 * The id of one of the editor's controls: `outlineControlId('topic-2-up')` is topic 3's up arrow,
 * `outlineControlId('lesson-0-1-rename')` the first topic's second lesson's Rename.
 */
export const outlineControlId = (control: string) => `outline-${control}`;

/**
 * The control that takes the member's focus once an edit shows (its key for outlineControlId),
 * so a keyboard stays where it was working: on the item moved (its arrow in the same direction,
 * or the other one once it reached an end and that arrow is disabled), on the Rename of the topic
 * or lesson added. Null after a removal. With JavaScript the editor focuses it; without, the
 * server's answer sends the browser to it (a fragment focuses the control it names).
 */
export function controlAfterOp(after: Outline, op: OutlineOp): string | null {
  const arrow = (item: string, index: number, count: number, by: -1 | 1) => {
    const canGoOn = by < 0 ? index > 0 : index < count - 1;
    const [same, other] = by < 0 ? ['up', 'down'] : ['down', 'up'];
    return `${item}-${canGoOn ? same : other}`;
  };
  switch (op.kind) {
    case 'move-topic': {
      const index = op.topic + op.by;
      return arrow(`topic-${index}`, index, after.length, op.by);
    }
    case 'move-lesson': {
      const index = op.lesson + op.by;
      const count = after[op.topic]?.lessons.length ?? 0;
      return arrow(`lesson-${op.topic}-${index}`, index, count, op.by);
    }
    case 'add-topic':
      return `topic-${after.length - 1}-rename`;
    case 'add-lesson':
      return `lesson-${op.topic}-${(after[op.topic]?.lessons.length ?? 1) - 1}-rename`;
    default:
      return null;
  }
}

/** The form field of a topic's title and of a lesson's. */
export const topicField = (topic: number) => `topic.${topic}`;
export const lessonField = (topic: number, lesson: number) => `lesson.${topic}.${lesson}`;

/**
 * The outline a /topics form posted (`topic.0`, `lesson.0.1`, ...), in order; null when it posted
 * none (a plain Generate Course, which uses the stored outline).
 */
export function outlineFromFields(body: Record<string, unknown>): Outline | null {
  const topics = new Map<number, { title: string; lessons: Map<number, string> }>();
  const at = (index: number) => {
    let topic = topics.get(index);
    if (!topic) {
      topic = { title: '', lessons: new Map() };
      topics.set(index, topic);
    }
    return topic;
  };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  for (const [key, value] of Object.entries(body)) {
    const topicMatch = /^topic\.(\d{1,2})$/.exec(key);
    const lessonMatch = /^lesson\.(\d{1,2})\.(\d{1,2})$/.exec(key);
    if (topicMatch) at(Number(topicMatch[1])).title = text(value);
    else if (lessonMatch)
      at(Number(lessonMatch[1])).lessons.set(Number(lessonMatch[2]), text(value));
  }
  if (topics.size === 0) return null;
  return [...topics.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, topic]) => ({
      title: topic.title,
      lessons: [...topic.lessons.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([, title]) => ({ title })),
    }));
}
