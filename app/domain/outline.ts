/**
 * An outline: the AI's plan of a course, its topics and their lessons' titles, as the code and
 * the database (`outlines.result`) hold it. Browser-safe.
 *
 * The spec's API and the AI's outline tool call a topic's lessons `subtopics` (the spec's course
 * content does too). That word stays at those two edges: `outlineFromSpec` takes what they send,
 * `outlineToSpec` answers in their shape (ADR 0052). Inside, a lesson is a lesson, and
 * "sub-topics" are only what a member types on /create.
 */
export interface OutlineTopic {
  title: string;
  lessons: { title: string }[];
}
export type Outline = OutlineTopic[];

/** A topic as the /api edge and the AI's outline tool have it. */
export interface SpecOutlineTopic {
  title: string;
  subtopics: { title: string }[];
}

/** What the /api edge or the AI's outline tool sent, in the code's words. */
export function outlineFromSpec(topics: readonly SpecOutlineTopic[]): Outline {
  return topics.map((topic) => ({
    title: topic.title,
    lessons: topic.subtopics.map((lesson) => ({ title: lesson.title })),
  }));
}

/** An outline in the spec's words, for the /api edge. */
export function outlineToSpec(outline: readonly OutlineTopic[]): SpecOutlineTopic[] {
  return outline.map((topic) => ({
    title: topic.title,
    subtopics: topic.lessons.map((lesson) => ({ title: lesson.title })),
  }));
}
