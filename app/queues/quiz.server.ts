import { z } from 'zod';
import { defineQueue, mapOwed, type Owed } from './factory.server';
import { retryForeverOptions } from './retry.server';

/** One job per quiz: enqueueing a quiz that has a job is a no-op. */
export const quizQueue = defineQueue({
  name: 'quiz',
  payload: z.object({
    quizId: z.number().int().positive(),
    courseId: z.string().min(1).max(64),
  }),
  // The course id is random and never reused, so a restored database (whose row ids can come
  // back) never meets the id of an old job: ids are unique for all time, as for lessons.
  jobId: ({ quizId, courseId }) => `quiz-${courseId}-${quizId}`,
  defaultJobOptions: retryForeverOptions,
});
export type QuizPayload = z.infer<typeof quizQueue.payload>;

/** Behind every lesson of a course: the member reads before taking a quiz. */
export const QUIZ_PRIORITY = 100;

/** Every quiz without questions gets a live job (at creation, and the sweeper's half for quizzes). */
export function ensureQuizJobs(quizzes: Owed<QuizPayload>) {
  return quizQueue.ensure(
    mapOwed(quizzes, (data) => ({ data, options: { priority: QUIZ_PRIORITY } })),
  );
}
