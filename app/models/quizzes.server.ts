import { and, asc, count, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { quizAttempts, quizzes, QuizQuestion } from '../../db/schema';
import { database, first, tables } from '~/utils/database.server';

/**
 * Quizzes and their attempts. A quiz row is written with its course and owes a job until its
 * questions are stored; the questions (answer key included) are read only by the marking and
 * the job, never by a page before the member submits (ADR 0018).
 */
export type Quiz = typeof quizzes.$inferSelect;
export type QuizAttempt = typeof quizAttempts.$inferSelect;

const EXAM_QUESTIONS = 10;
/** 3 to 5 questions: one more than the topic has lessons. */
const topicQuestionCount = (lessonCount: number) => Math.min(5, Math.max(3, lessonCount + 1));

export interface CourseQuizTopic {
  id: number;
  title: string;
  lessonCount: number;
  /** Questions that already exist (a copied course): the quiz is written, no job owed. */
  questions?: QuizQuestion[] | null;
}

/** Questions given up front make a written quiz; without them the quiz waits for its job. */
const written = (questions: QuizQuestion[] | null | undefined) =>
  questions ? { questions, state: 'done' as const, generatedAt: new Date() } : {};

/** A quiz after every topic and the final exam, in the transaction that writes the course. */
export async function insertCourseQuizzes(
  courseId: string,
  courseTopics: CourseQuizTopic[],
  examQuestions?: QuizQuestion[] | null,
) {
  const { quizzes } = tables;
  await database()
    .insert(quizzes)
    .values([
      ...courseTopics.map((topic) => ({
        courseId,
        topicId: topic.id,
        kind: 'topic' as const,
        title: topic.title,
        questionCount: topicQuestionCount(topic.lessonCount),
        ...written(topic.questions),
      })),
      {
        courseId,
        topicId: null,
        kind: 'exam' as const,
        title: 'Final exam',
        questionCount: EXAM_QUESTIONS,
        ...written(examQuestions),
      },
    ]);
}

export async function listQuizzesOfCourse(courseId: string): Promise<Quiz[]> {
  const { quizzes } = tables;
  return database()
    .select()
    .from(quizzes)
    .where(eq(quizzes.courseId, courseId))
    .orderBy(asc(quizzes.id));
}

/** A quiz of this course (the caller has already checked the course is the member's). */
export async function getQuizOfCourse(quizId: number, courseId: string): Promise<Quiz | undefined> {
  const { quizzes } = tables;
  return first(
    database()
      .select()
      .from(quizzes)
      .where(and(eq(quizzes.id, quizId), eq(quizzes.courseId, courseId))),
  );
}

export interface QuizJobContext {
  quiz: Quiz;
  course: { id: string; mainTopic: string; language: string };
  /** The lessons the quiz asks about: the topic's, or the whole course's for the exam. */
  lessons: { title: string; topicTitle: string }[];
}

/** What a quiz job needs, or undefined when the quiz (or its course) was deleted. */
export async function getQuizJobContext(quizId: number): Promise<QuizJobContext | undefined> {
  const { courses, lessons, quizzes, topics } = tables;
  const row = await first(
    database()
      .select({
        quiz: quizzes,
        course: { id: courses.id, mainTopic: courses.mainTopic, language: courses.language },
      })
      .from(quizzes)
      .innerJoin(courses, eq(courses.id, quizzes.courseId))
      .where(eq(quizzes.id, quizId)),
  );
  if (!row) return undefined;
  const asked = await database()
    .select({ title: lessons.title, topicTitle: topics.title })
    .from(lessons)
    .innerJoin(topics, eq(topics.id, lessons.topicId))
    .where(
      row.quiz.topicId === null
        ? eq(lessons.courseId, row.course.id)
        : eq(lessons.topicId, row.quiz.topicId),
    )
    .orderBy(asc(lessons.ordinal));
  return { ...row, lessons: asked };
}

/** A try starts. Never undoes 'done'. */
export async function markQuizRunning(quizId: number, failuresSoFar: number) {
  const { quizzes } = tables;
  await database()
    .update(quizzes)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'running' })
    .where(and(eq(quizzes.id, quizId), isNull(quizzes.questions)));
}

/** A try put off by the AI rate limit (ADR 0024): waiting again, as before it started. */
export async function markQuizWaiting(quizId: number, failuresSoFar: number) {
  const { quizzes } = tables;
  await database()
    .update(quizzes)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'queued' })
    .where(and(eq(quizzes.id, quizId), isNull(quizzes.questions)));
}

/** Stores the questions once: a job run twice cannot replace questions already answered. */
export async function storeQuizQuestions(
  quizId: number,
  questions: QuizQuestion[],
): Promise<boolean> {
  const { quizzes } = tables;
  const stored = await database()
    .update(quizzes)
    .set({ questions, state: 'done', lastError: null, generatedAt: new Date() })
    .where(and(eq(quizzes.id, quizId), isNull(quizzes.questions)))
    .returning({ id: quizzes.id });
  return stored.length === 1;
}

/**
 * The author's edit of a written quiz (ADR 0061): only once it has questions, so an edit and the
 * quiz's job never write over each other (the job writes only where there are none).
 */
export async function replaceQuizQuestions(
  quizId: number,
  questions: QuizQuestion[],
): Promise<boolean> {
  const { quizzes } = tables;
  const stored = await database()
    .update(quizzes)
    .set({ questions })
    .where(and(eq(quizzes.id, quizId), isNotNull(quizzes.questions)))
    .returning({ id: quizzes.id });
  return stored.length === 1;
}

export async function recordQuizFailure(quizId: number, failures: number, message: string) {
  const { quizzes } = tables;
  await database()
    .update(quizzes)
    .set({ state: 'retrying', attempts: failures, lastError: message.slice(0, 500) })
    .where(and(eq(quizzes.id, quizId), isNull(quizzes.questions)));
}

/** Quizzes still without questions: the work the sweeper keeps a job for. */
/**
 * Quizzes without questions, with their member, oldest course first and each course in order: the
 * sweeper gives each a job again, members taking turns (ADR 38).
 */
export async function listUnfinishedQuizzes(): Promise<
  { quizId: number; courseId: string; userId: string }[]
> {
  const { courses, quizzes } = tables;
  return database()
    .select({ quizId: quizzes.id, courseId: quizzes.courseId, userId: courses.userId })
    .from(quizzes)
    .innerJoin(courses, eq(courses.id, quizzes.courseId))
    .where(sql`${quizzes.state} != 'done'`)
    .orderBy(asc(courses.createdAt), asc(courses.id), asc(quizzes.id));
}

/**
 * Quizzes the member of `courseId` is still owed in their other courses: the turns that course's
 * quizzes wait behind, so one member's backlog does not hold up another's new course (ADR 38).
 */
export async function countOwedQuizzesInOtherCourses(courseId: string): Promise<number> {
  const { courses, quizzes } = tables;
  const row = await first(
    database()
      .select({ owed: count() })
      .from(quizzes)
      .innerJoin(courses, eq(courses.id, quizzes.courseId))
      .where(
        and(
          eq(courses.userId, sql`(SELECT user_id FROM courses WHERE id = ${courseId})`),
          ne(quizzes.courseId, courseId),
          sql`${quizzes.state} != 'done'`,
        ),
      ),
  );
  return row?.owed ?? 0;
}

export async function insertAttempt(attempt: {
  quizId: number;
  userId: string;
  answers: number[];
  score: number;
  total: number;
}): Promise<QuizAttempt> {
  const { quizAttempts } = tables;
  const [inserted] = await database().insert(quizAttempts).values(attempt).returning();
  return inserted!;
}

/** A member's attempts at a quiz, newest first. */
export async function listAttempts(quizId: number, userId: string): Promise<QuizAttempt[]> {
  const { quizAttempts } = tables;
  return database()
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.quizId, quizId), eq(quizAttempts.userId, userId)))
    .orderBy(desc(quizAttempts.id));
}

export interface QuizScores {
  quizId: number;
  attempts: number;
  best: { score: number; total: number } | null;
  last: { score: number; total: number } | null;
}

/** Best and last score of each of the course's quizzes that the member has taken. */
export async function scoresOfCourse(
  courseId: string,
  userId: string,
): Promise<Map<number, QuizScores>> {
  const { quizAttempts, quizzes } = tables;
  const rows = await database()
    .select({
      quizId: quizAttempts.quizId,
      id: quizAttempts.id,
      score: quizAttempts.score,
      total: quizAttempts.total,
    })
    .from(quizAttempts)
    .innerJoin(quizzes, eq(quizzes.id, quizAttempts.quizId))
    .where(and(eq(quizzes.courseId, courseId), eq(quizAttempts.userId, userId)))
    .orderBy(asc(quizAttempts.id));
  const scores = new Map<number, QuizScores>();
  for (const row of rows) {
    const entry = scores.get(row.quizId) ?? {
      quizId: row.quizId,
      attempts: 0,
      best: null,
      last: null,
    };
    const result = { score: row.score, total: row.total };
    entry.attempts += 1;
    entry.last = result;
    if (!entry.best || row.score / row.total > entry.best.score / entry.best.total)
      entry.best = result;
    scores.set(row.quizId, entry);
  }
  return scores;
}

/**
 * For the course cards shown (a page of them): how many quizzes each course has and how many the
 * member has taken.
 */
export async function quizSummariesOfUser(
  userId: string,
  courseIds: string[],
): Promise<
  Map<string, { quizzes: number; taken: number; examBest: { score: number; total: number } | null }>
> {
  if (courseIds.length === 0) return new Map();
  const { courses, quizAttempts, quizzes } = tables;
  const rows = await database()
    .select({
      courseId: quizzes.courseId,
      kind: quizzes.kind,
      taken: count(quizAttempts.id),
      best: sql<number | null>`max(${quizAttempts.score})`,
      total: quizzes.questionCount,
    })
    .from(quizzes)
    .innerJoin(courses, eq(courses.id, quizzes.courseId))
    .leftJoin(
      quizAttempts,
      and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.userId, userId)),
    )
    .where(and(eq(courses.userId, userId), inArray(quizzes.courseId, courseIds)))
    .groupBy(quizzes.id);
  const summaries = new Map<
    string,
    { quizzes: number; taken: number; examBest: { score: number; total: number } | null }
  >();
  for (const row of rows) {
    const entry = summaries.get(row.courseId) ?? { quizzes: 0, taken: 0, examBest: null };
    entry.quizzes += 1;
    if (row.taken > 0) entry.taken += 1;
    if (row.kind === 'exam' && row.best !== null)
      entry.examBest = { score: row.best, total: row.total };
    summaries.set(row.courseId, entry);
  }
  return summaries;
}

/** The lessons a quiz follows, with the member's done marks: the exam opens once all are done. */
export async function lessonsDoneOfCourse(
  courseId: string,
): Promise<{ total: number; done: number }> {
  const { lessons } = tables;
  const row = await first(
    database()
      .select({
        total: count(),
        done: sql<number>`count(*) filter (where ${eq(lessons.done, true)})`.mapWith(Number),
      })
      .from(lessons)
      .where(eq(lessons.courseId, courseId)),
  );
  return { total: row?.total ?? 0, done: row?.done ?? 0 };
}
