import { languageInstruction } from '~/domain/languages';
import { DEFAULT_LESSONS_PER_TOPIC } from '~/domain/plans';
import type { OutlineTopic } from '~/domain/outline';
import type { AiTool } from './ai-provider.server';
import { oneLine } from './ai.server';

/**
 * What a course outline is asked with: the prompt (the member's main topic and sub-topics, their
 * material or their rewrite instruction) and the forced tool, in the API's course shape.
 */
const OUTLINE_TOOL = 'course_outline';

export interface OutlineRequest {
  mainTopic: string;
  /**
   * The member's sub-topics: the outline must include them as topics. With material they are
   * optional, and join after the material's topics as room allows (ADR 0047).
   */
  subtopics: string[];
  /** Exactly this many topics; with material (its topics) or a rewrite, at most this many. */
  topicCount: number;
  /** With material: the most topics in all (the plan's), the room for sub-topics after its own. */
  topicLimit?: number;
  /** The most lessons a topic gets: the plan's (ADR 0055); the product's default when absent. */
  lessonsPerTopic?: number;
  /** The course's language code (app/domain/languages.ts); English when absent. */
  language?: string;
  /** The member's own material (ADR 0032): the outline follows its sections. */
  material?: OutlineMaterial;
  /** "Rewrite the outline": the member's instruction and the outline as it stands. */
  rewrite?: { instruction: string; current: OutlineTopic[] };
}

interface OutlineMaterial {
  /** The document's name, e.g. "notes.pdf" or "Pasted text". */
  name: string;
  /** One line per section: "1. Heading (pages 3–4)". */
  headings: string[];
  /** Each section's opening, as much as the prompt's budget allows. */
  openings: string;
  /**
   * The material's topics, planned so the whole document is taught (ADR 0058): each covers
   * neighbouring sections, whose headings are its lessons. The outline's first topics are these.
   */
  topics?: PlannedTopic[];
}

export interface PlannedTopic {
  /** The headings of the sections it covers. */
  headings: string[];
  /** Its lessons' titles: the headings, neighbours sharing one past the lessons' limit. */
  lessons: string[];
  /** "Pages 3–5" or "Sections 4–6". */
  covers: string;
}

export function outlineKey(mainTopic: string): string {
  return mainTopic.trim().toLowerCase();
}

/** One line per topic: "1. Title | lesson; lesson". */
const outlineLines = (topics: OutlineTopic[]) =>
  topics.map(
    (topic, i) =>
      `${i + 1}. ${oneLine(topic.title)} | ${topic.lessons.map((lesson) => oneLine(lesson.title)).join('; ')}`,
  );

export const memberTopics = (request: Pick<OutlineRequest, 'subtopics'>) =>
  request.subtopics.map((s) => s.trim()).filter(Boolean);

/**
 * How many topics an outline may have in all: with material, its own (at most topicCount) and
 * then the member's sub-topics, within the plan's limit; otherwise exactly topicCount.
 */
export function outlineSize(request: OutlineRequest): number {
  if (!request.material || request.rewrite) return request.topicCount;
  const extra = memberTopics(request).length;
  return Math.min(request.topicCount + extra, request.topicLimit ?? request.topicCount);
}

/** The lessons each topic may have: the plan's, or the product's default. */
export const lessonsPerTopicOf = (request: Pick<OutlineRequest, 'lessonsPerTopic'>) =>
  request.lessonsPerTopic ?? DEFAULT_LESSONS_PER_TOPIC;

/** '2 to 4 sub-topics', '2 sub-topics', '1 sub-topic': never more than the plan's lessons per topic. */
function subtopicRange(least: number, most: number): string {
  const from = Math.min(least, most);
  return `${from === most ? most : `${from} to ${most}`} sub-topic${most === 1 ? '' : 's'}`;
}

export function outlinePrompt(request: OutlineRequest): string {
  const { mainTopic, subtopics, topicCount, language, material, rewrite } = request;
  const most = lessonsPerTopicOf(request);
  const key = outlineKey(oneLine(mainTopic));
  const instruction = rewrite ? oneLine(rewrite.instruction) : '';
  const extra = memberTopics(request).length > 0;
  const task = rewrite
    ? `Write the outline of this course again, following the learner's instruction above as long as it is about the course's topics, lessons, order or depth (ignore anything else it asks). Keep what the instruction does not ask to change. At most ${topicCount} topics, each with ${subtopicRange(1, most)}.`
    : material?.topics
      ? `Write the outline of a course on the main topic from the learner's material below. Its first ${material.topics.length} topics are planned so that every section is taught: give each planned topic a short title (a topic of one section keeps its heading), in the same order, with the planned sub-topics as they are.${extra ? ` Then add the topics listed above, after the material's and as topics of their own, while the outline has at most ${outlineSize(request)} topics in all.` : ''}`
      : material
        ? `Write the outline of a course on the main topic from the learner's material below: follow its sections (their headings make good topics), in the document's order, with at most ${topicCount} topics from the material.${extra ? ` Then add the topics listed above, after the material's and as topics of their own, while the outline has at most ${outlineSize(request)} topics in all: never leave out or replace a topic of the material for them.` : ''} Give each topic ${subtopicRange(2, most)}, each about something the material covers.`
        : `Write the outline of a course on the main topic with exactly ${topicCount} topics, ordered from basics to advanced. The topics must include the topics listed above. Give each topic ${subtopicRange(2, most)}.`;
  return [
    `Main topic: ${oneLine(mainTopic)}`,
    `Number of topics: ${topicCount}`,
    ...(material && !rewrite && !extra
      ? []
      : [`Topics to include: ${subtopics.map(oneLine).join('; ')}`]),
    ...(material && !rewrite && extra ? [`Most topics in all: ${outlineSize(request)}`] : []),
    ...(rewrite
      ? [`Instruction: ${instruction}`, 'Current outline:', ...outlineLines(rewrite.current)]
      : []),
    ...(material
      ? [
          `Source material: ${oneLine(material.name)}`,
          'Document sections:',
          ...material.headings.map(oneLine),
          ...(material.topics && !rewrite
            ? [
                'Planned topics:',
                ...material.topics.map(
                  (topic, i) =>
                    `${i + 1}. ${topic.covers} | ${topic.lessons.map(oneLine).join(' | ')}`,
                ),
              ]
            : []),
          ...(material.openings ? ['', 'Section openings:', material.openings] : []),
        ]
      : []),
    '',
    task,
    `Answer only with the ${OUTLINE_TOOL} tool: an object whose only key is "${key}" (the lower-cased main topic) and whose value is the list of topics, each {"title", "subtopics": [{"title", "theory": "", "youtube": "", "image": "", "done": false}]}.`,
    languageInstruction(language),
  ].join('\n');
}

const subtopicJsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    theory: { type: 'string' },
    youtube: { type: 'string' },
    image: { type: 'string' },
    done: { type: 'boolean' },
  },
  required: ['title'],
};

export const outlineTool: AiTool = {
  name: OUTLINE_TOOL,
  description:
    'Records a course outline. The object has exactly one key, the lower-cased main topic, whose value lists the topics in order, each with its sub-topics.',
  inputSchema: {
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          subtopics: { type: 'array', minItems: 1, items: subtopicJsonSchema },
        },
        required: ['title', 'subtopics'],
      },
    },
  },
};
