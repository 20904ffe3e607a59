import { Queue } from 'bullmq';
import { z } from 'zod';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { producerRedis } from '~/utils/redis.server';
import { retryForeverOptions } from '../retry';

export const LESSON_QUEUE = 'lesson';

export const lessonPayload = z.object({
  lessonId: z.number().int().positive(),
  courseId: z.string().min(1).max(64),
});
export type LessonPayload = z.infer<typeof lessonPayload>;

/**
 * BullMQ runs lower numbers first. The lesson a learner waits for goes first;
 * the others follow in course order, ahead of the learner.
 */
export const WAITED_FOR_PRIORITY = 1;
export const aheadPriority = (ordinal: number) => 10 + ordinal;

let queue: Queue | undefined;

export function lessonQueue(): Queue {
  queue ??= new Queue(LESSON_QUEUE, {
    connection: producerRedis(),
    prefix: env().REDIS_PREFIX,
    defaultJobOptions: retryForeverOptions,
  });
  return queue;
}

export const lessonJobId = (lessonId: number) => `lesson-${lessonId}`;

/** One job per lesson: enqueueing a lesson that has a job is a no-op. */
export async function enqueueLessons(items: (LessonPayload & { priority: number })[]) {
  if (items.length === 0) return;
  await lessonQueue().addBulk(
    items.map(({ priority, ...payload }) => {
      const data = lessonPayload.parse(payload);
      return { name: 'lesson', data, opts: { jobId: lessonJobId(data.lessonId), priority } };
    }),
  );
}

/**
 * A learner waits for this lesson: move its job to the front, or (re)create it
 * when Redis lost it. A job waiting out a retry delay keeps its backoff.
 */
export async function prioritiseLesson(payload: LessonPayload) {
  const job = await lessonQueue().getJob(lessonJobId(payload.lessonId));
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
