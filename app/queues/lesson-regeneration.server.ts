import { z } from 'zod';
import { defineQueue, mapOwed, type Owed } from './factory.server';
import { retryForeverOptions } from './retry.server';

/**
 * One job per regeneration request. The token is random per request, so a new request after a
 * finished one gets a new job rather than meeting the old one's id (ADR 13, 20).
 */
export const lessonRegenerationQueue = defineQueue({
  name: 'lesson-regeneration',
  payload: z.object({
    lessonId: z.number().int().positive(),
    courseId: z.string().min(1).max(64),
    token: z.string().min(1).max(64),
  }),
  jobId: ({ lessonId, courseId, token }) => `regenerate-${courseId}-${lessonId}-${token}`,
  defaultJobOptions: retryForeverOptions,
});
export type LessonRegenerationPayload = z.infer<typeof lessonRegenerationQueue.payload>;

/**
 * Every running request gets a live job (when asked, and the sweeper's half for regenerations,
 * which gives a `priority` to queue behind fresh requests, ADR 38).
 */
export function ensureRegenerationJobs(items: Owed<LessonRegenerationPayload>, priority?: number) {
  return lessonRegenerationQueue.ensure(
    mapOwed(items, (data) => ({ data, options: priority === undefined ? {} : { priority } })),
  );
}
