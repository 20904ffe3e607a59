import { asc, eq } from 'drizzle-orm';
import { courses, lessons, quizzes, topics, type QuizQuestion } from '../../db/schema';
import { appDatabase } from './members';

/**
 * What the SCORM browser test adds to a course made with insertCourse (tests/support/courses.ts):
 * written quizzes, a language, a photo. Written into the running app's SQLite file.
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
export function insertWrittenQuizzes(dataDir: string, courseId: string) {
  const db = appDatabase(dataDir);
  const courseTopics = db
    .select({ id: topics.id, title: topics.title })
    .from(topics)
    .where(eq(topics.courseId, courseId))
    .orderBy(asc(topics.position))
    .all();
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
  db.insert(quizzes)
    .values(rows.map((row) => ({ ...row, state: 'done' as const, generatedAt: new Date() })))
    .run();
  return rows;
}

/** A course's language, and its title and lesson titles in that language's words. */
export function setCourseLanguage(
  dataDir: string,
  courseId: string,
  language: string,
  words: { course: string; topic: string; lesson: string },
) {
  const db = appDatabase(dataDir);
  db.update(courses)
    .set({ language, mainTopic: words.course })
    .where(eq(courses.id, courseId))
    .run();
  const courseTopics = db.select().from(topics).where(eq(topics.courseId, courseId)).all();
  for (const topic of courseTopics)
    db.update(topics)
      .set({ title: `${words.topic} ${topic.position + 1}` })
      .where(eq(topics.id, topic.id))
      .run();
  const courseLessons = db.select().from(lessons).where(eq(lessons.courseId, courseId)).all();
  courseLessons.forEach((lesson, i) =>
    db
      .update(lessons)
      .set({
        title: `${words.lesson} ${i + 1}`,
        theory: `<p>${words.lesson} ${i + 1}: ${words.course}</p>`,
      })
      .where(eq(lessons.id, lesson.id))
      .run(),
  );
}

/** Gives a course's first lesson a photo from the demo images, which an export copies. */
export function setFirstLessonPhoto(dataDir: string, courseId: string, url: string) {
  const db = appDatabase(dataDir);
  const first = db
    .select({ id: lessons.id })
    .from(lessons)
    .where(eq(lessons.courseId, courseId))
    .orderBy(asc(lessons.id))
    .get();
  if (!first) throw new Error('the course has no lessons');
  db.update(lessons).set({ imageUrl: url }).where(eq(lessons.id, first.id)).run();
}
