import type { LessonSource } from '../../../db/schema';
import { materialOfCourse } from '~/models/source-documents.server';
import { type Passage, passagesText, relevantSections, sourceOf } from './relevance.server';

/**
 * The passages of the course's material lessons and quizzes are written from, by the relevance rule of
 * relevance.server.ts, and the sources its page lists. A course without material, or a lesson
 * no section is relevant to, gets none and is written as before.
 */
export async function lessonPassages(
  courseId: string,
  lesson: { title: string; topicTitle: string },
): Promise<{ passages?: string; sources: LessonSource[] }> {
  const material = await materialOfCourse(courseId);
  if (!material) return { sources: [] };
  const chosen = relevantSections(material.sections, {
    lesson: lesson.title,
    topic: lesson.topicTitle,
  });
  if (chosen.length === 0) return { sources: [] };
  return { passages: passagesText(chosen), sources: chosen.map(sourceOf) };
}

/**
 * The passages a quiz is written from: the section each of its lessons quotes first (the same
 * rule, so a question asks about what its lesson taught), each once, in the course's order,
 * within the lesson prompt's budget however many lessons the quiz covers (ADR 0058). Undefined
 * for a course without material, whose quizzes are written from the lesson titles alone.
 */
export async function quizPassages(
  courseId: string,
  lessons: { title: string; topicTitle: string }[],
): Promise<string | undefined> {
  const material = await materialOfCourse(courseId);
  if (!material) return undefined;
  const chosen = new Map<number, Passage>();
  for (const lesson of lessons) {
    const [own] = relevantSections(
      material.sections,
      { lesson: lesson.title, topic: lesson.topicTitle },
      1,
    );
    if (own && !chosen.has(own.index)) chosen.set(own.index, own);
  }
  return chosen.size === 0 ? undefined : passagesText([...chosen.values()]);
}
