import { z } from 'zod';
import { log } from '~/utils/logger.server';
import { defineQueue } from './factory.server';
import { retryForeverOptions } from './retry.server';

/** One job per lesson: enqueueing a lesson that has a job is a no-op. */
export const lessonQueue = defineQueue({
  name: 'lesson',
  payload: z.object({
    lessonId: z.number().int().positive(),
    courseId: z.string().min(1).max(64),
  }),
  jobId: ({ lessonId }) => `lesson-${lessonId}`,
  defaultJobOptions: retryForeverOptions,
});
export type LessonPayload = z.infer<typeof lessonQueue.payload>;

/**
 * BullMQ runs lower numbers first. The lesson a learner waits for goes first;
 * the others follow in course order, ahead of the learner.
 */
export const WAITED_FOR_PRIORITY = 1;
export const aheadPriority = (ordinal: number) => 10 + ordinal;

export function enqueueLessons(items: (LessonPayload & { priority: number })[]) {
  return lessonQueue.addBulk(
    items.map(({ priority, ...data }) => ({ data, options: { priority } })),
  );
}

/**
 * A learner waits for this lesson: move its job to the front, or (re)create it
 * when Redis lost it. A job waiting out a retry delay keeps its backoff.
 */
export async function prioritiseLesson(payload: LessonPayload) {
  const job = await lessonQueue.findJob(payload);
  if (!job) {
    await enqueueLessons([{ ...payload, priority: WAITED_FOR_PRIORITY }]);
    return 'enqueued';
  }
  const state = await job.getState();
  if ((state === 'prioritized' || state === 'waiting') && job.priority !== WAITED_FOR_PRIORITY) {
    await job.changePriority({ priority: WAITED_FOR_PRIORITY });
    return 'prioritised';
  }
  if (state === 'failed' || state === 'completed') {
    // Finished without a lesson (e.g. stalled too often): start it afresh.
    await job.remove();
    await enqueueLessons([{ ...payload, priority: WAITED_FOR_PRIORITY }]);
    log.warn('lesson.requeued', { lessonId: payload.lessonId, previousState: state });
    return 'enqueued';
  }
  return state;
}
