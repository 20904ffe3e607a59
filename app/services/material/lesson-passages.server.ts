import type { LessonSource } from '../../../db/schema';
import { materialOfCourse } from '~/models/source-documents.server';
import { passagesText, relevantSections, sourceOf } from './relevance.server';

/**
 * The passages of the course's material a lesson is written from, by the relevance rule of
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
