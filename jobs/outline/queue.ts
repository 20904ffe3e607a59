import { Queue } from 'bullmq';
import { z } from 'zod';
import { env } from '~/utils/env.server';
import { producerRedis } from '~/utils/redis.server';
import { retryForeverOptions } from '../retry';

export const OUTLINE_QUEUE = 'outline';

/** Only the id travels: the job reads the member's request from the outline row. */
export const outlinePayload = z.object({ outlineId: z.string().min(1).max(64) });
export type OutlinePayload = z.infer<typeof outlinePayload>;

let queue: Queue | undefined;

export function outlineQueue(): Queue {
  queue ??= new Queue(OUTLINE_QUEUE, {
    connection: producerRedis(),
    prefix: env().REDIS_PREFIX,
    defaultJobOptions: retryForeverOptions,
  });
  return queue;
}

export const outlineJobId = (outlineId: string) => `outline-${outlineId}`;

/** One job per outline: enqueueing the same outline again is a no-op. */
export async function enqueueOutline(payload: OutlinePayload) {
  const data = outlinePayload.parse(payload);
  return outlineQueue().add('outline', data, { jobId: outlineJobId(data.outlineId) });
}
