import { eq, inArray } from 'drizzle-orm';
import type { Database, Tables } from '~/utils/database.server';
import type { Gone } from './leftover-rows';

/**
 * A member's own rows on one course, of every kind a course holds beyond what generation
 * writes: a note, a tutor exchange, a quiz attempt, a flashcard with its schedule and a review,
 * a re-written lesson, a share link and a completion. Written straight into the database, for
 * tests whose subject is what deleting takes away.
 */
export async function fillCourse(db: Database, tables: Tables, userId: string, courseId: string) {
  const [lesson] = await db
    .select({ id: tables.lessons.id })
    .from(tables.lessons)
    .where(eq(tables.lessons.courseId, courseId))
    .limit(1);
  const [quiz] = await db
    .select({ id: tables.quizzes.id })
    .from(tables.quizzes)
    .where(eq(tables.quizzes.courseId, courseId))
    .limit(1);
  const lessonId = lesson!.id;
  const now = new Date();
  await db.insert(tables.lessonNotes).values({ userId, lessonId, body: 'My own note' });
  await db.insert(tables.tutorMessages).values([
    { userId, lessonId, role: 'user', content: 'Why?' },
    { userId, lessonId, role: 'assistant', content: 'Because.', html: '<p>Because.</p>' },
  ]);
  await db
    .insert(tables.quizAttempts)
    .values({ quizId: quiz!.id, userId, answers: [0], score: 1, total: 1 });
  const [card] = await db
    .insert(tables.flashcards)
    .values({ lessonId, courseId, position: 99, question: 'Q?', answer: 'A.' })
    .returning({ id: tables.flashcards.id });
  await db.insert(tables.flashcardSchedules).values({ userId, cardId: card!.id, due: now });
  await db.insert(tables.flashcardReviews).values({
    userId,
    cardId: card!.id,
    rating: 3,
    state: 0,
    elapsedDays: 0,
    scheduledDays: 1,
    reviewedAt: now,
  });
  await db
    .insert(tables.lessonRegenerations)
    .values({ lessonId, courseId, userId, token: `t-${courseId}`, state: 'done' });
  await db.insert(tables.courseShares).values({ courseId, token: `share-${courseId}` });
  await db.insert(tables.courseCompletions).values({
    courseId,
    certificateId: `cert-${courseId}`,
    completedAt: now,
    memberName: 'Test Member',
    courseTitle: 'A course',
  });
}

/** Every id of a course's rows, as a `Gone` for leftoverRows, read before it is deleted. */
export async function idsOfCourses(
  db: Database,
  tables: Tables,
  courseIds: string[],
): Promise<Gone> {
  const ids = async (rows: Promise<{ id: number | string }[]>) => (await rows).map((row) => row.id);
  const lessons = await ids(
    db
      .select({ id: tables.lessons.id })
      .from(tables.lessons)
      .where(inArray(tables.lessons.courseId, courseIds)),
  );
  const topics = await ids(
    db
      .select({ id: tables.topics.id })
      .from(tables.topics)
      .where(inArray(tables.topics.courseId, courseIds)),
  );
  const quizzes = await ids(
    db
      .select({ id: tables.quizzes.id })
      .from(tables.quizzes)
      .where(inArray(tables.quizzes.courseId, courseIds)),
  );
  const cards = await ids(
    db
      .select({ id: tables.flashcards.id })
      .from(tables.flashcards)
      .where(inArray(tables.flashcards.courseId, courseIds)),
  );
  const outlines = await ids(
    db
      .select({ id: tables.outlines.id })
      .from(tables.outlines)
      .where(inArray(tables.outlines.courseId, courseIds)),
  );
  const documents = await ids(
    db
      .select({ id: tables.sourceDocuments.id })
      .from(tables.sourceDocuments)
      .where(inArray(tables.sourceDocuments.courseId, courseIds)),
  );
  return {
    columns: {
      course_id: courseIds,
      lesson_id: lessons,
      topic_id: topics,
      quiz_id: quizzes,
      card_id: cards,
      outline_id: outlines,
    },
    ids: {
      courses: courseIds,
      lessons,
      topics,
      quizzes,
      flashcards: cards,
      outlines,
      source_documents: documents,
    },
  };
}
