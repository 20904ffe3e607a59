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

/**
 * Every quiz without questions gets a live job at the priority given (at creation, fresh; the
 * sweeper's half for quizzes, swept; ADR 38).
 */
export function ensureQuizJobs(quizzes: Owed<QuizPayload & { priority: number }>) {
  return quizQueue.ensure(
    mapOwed(quizzes, ({ priority, ...data }) => ({ data, options: { priority } })),
  );
}
