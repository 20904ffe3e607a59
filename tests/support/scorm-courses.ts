import { asc, eq } from 'drizzle-orm';
import type { QuizQuestion } from '../../db/schema';
import { first } from '~/utils/database.server';
import { appDataLayer, type DatabaseTarget } from './app-database';

/**
 * What the SCORM browser test adds to a course made with insertCourse (tests/support/courses.ts):
 * written quizzes, a language, a photo. Written into the running app's database.
 */

/** Multiple-choice questions whose right option moves around, so a test must read the key. */
export function sampleQuestions(count: number, label: string): QuizQuestion[] {
  return Array.from({ length: count }, (_, i) => ({
    question: `${label}: question ${i + 1}?`,
    options: ['Alpha', 'Beta', 'Gamma'].map((option) => `${option} ${i + 1}`),
    answer: i % 3,
    explanation: `Option ${(i % 3) + 1} is right for question ${i + 1}.`,
  }));
}

/**
 * Written quizzes for a course a test inserted (a topic quiz of 3 questions after each topic and
 * a final exam of 10), as the quiz jobs would have stored them. Returns them in reading order.
 */
export async function insertWrittenQuizzes(target: DatabaseTarget, courseId: string) {
  const { tables, root: db } = appDataLayer(target);
  const { topics, quizzes } = tables;
  const courseTopics = await db
    .select({ id: topics.id, title: topics.title })
    .from(topics)
    .where(eq(topics.courseId, courseId))
    .orderBy(asc(topics.position));
  const rows = [
    ...courseTopics.map((topic) => ({
      courseId,
      topicId: topic.id,
      kind: 'topic' as const,
      title: topic.title,
      questionCount: 3,
      questions: sampleQuestions(3, topic.title),
    })),
    {
      courseId,
      topicId: null,
      kind: 'exam' as const,
      title: 'Final exam',
      questionCount: 10,
      questions: sampleQuestions(10, 'Exam'),
    },
  ];
  await db
    .insert(quizzes)
    .values(rows.map((row) => ({ ...row, state: 'done' as const, generatedAt: new Date() })));
  return rows;
}

/** A course's language, and its title and lesson titles in that language's words. */
export async function setCourseLanguage(
  target: DatabaseTarget,
  courseId: string,
  language: string,
  words: { course: string; topic: string; lesson: string },
) {
  const { tables, root: db } = appDataLayer(target);
  const { courses, topics, lessons } = tables;
  await db
    .update(courses)
    .set({ language, mainTopic: words.course })
    .where(eq(courses.id, courseId));
  const courseTopics = await db.select().from(topics).where(eq(topics.courseId, courseId));
  for (const topic of courseTopics)
    await db
      .update(topics)
      .set({ title: `${words.topic} ${topic.position + 1}` })
      .where(eq(topics.id, topic.id));
  const courseLessons = await db
    .select()
    .from(lessons)
    .where(eq(lessons.courseId, courseId))
    .orderBy(asc(lessons.id));
  for (const [i, lesson] of courseLessons.entries())
    await db
      .update(lessons)
      .set({
        title: `${words.lesson} ${i + 1}`,
        theory: `<p>${words.lesson} ${i + 1}: ${words.course}</p>`,
      })
      .where(eq(lessons.id, lesson.id));
}

/** Gives a course's first lesson a photo from the demo images, which an export copies. */
export async function setFirstLessonPhoto(target: DatabaseTarget, courseId: string, url: string) {
  const { tables, root: db } = appDataLayer(target);
  const { lessons } = tables;
  const firstLesson = await first(
    db
      .select({ id: lessons.id })
      .from(lessons)
      .where(eq(lessons.courseId, courseId))
      .orderBy(asc(lessons.id))
      .limit(1),
  );
  if (!firstLesson) throw new Error('the course has no lessons');
  await db.update(lessons).set({ imageUrl: url }).where(eq(lessons.id, firstLesson.id));
}
