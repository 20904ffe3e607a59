import { Queue } from 'bullmq';
import { z } from 'zod';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { producerRedis } from '~/utils/redis.server';

export const MAINTENANCE_QUEUE = 'maintenance';

/**
 * `purge-expired` removes expired sessions and reset tokens. `selftest` holds
 * the worker for `holdMs` and reports back: an end-to-end check of the queue
 * path (used by tests and when diagnosing a deployment).
 */
export const maintenancePayload = z.discriminatedUnion('task', [
  z.object({ task: z.literal('purge-expired') }),
  z.object({ task: z.literal('selftest'), holdMs: z.number().int().min(0).max(60_000) }),
]);
export type MaintenancePayload = z.infer<typeof maintenancePayload>;

let queue: Queue | undefined;

export function maintenanceQueue(): Queue {
  queue ??= new Queue(MAINTENANCE_QUEUE, {
    connection: producerRedis(),
    prefix: env().REDIS_PREFIX,
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 5_000 },
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 100 },
    },
  });
  queue.on('error', (error) => log.warn('queue.error', { queue: MAINTENANCE_QUEUE, error }));
  return queue;
}

export async function enqueueMaintenance(payload: MaintenancePayload, jobId?: string) {
  return maintenanceQueue().add(payload.task, maintenancePayload.parse(payload), { jobId });
}

/** Hourly purge; upserting keeps exactly one schedule however often the worker restarts. */
export async function scheduleMaintenance() {
  await maintenanceQueue().upsertJobScheduler(
    'purge-expired-hourly',
    { every: 60 * 60 * 1000 },
    { name: 'purge-expired', data: { task: 'purge-expired' } },
  );
}

export async function closeMaintenanceQueue() {
  await queue?.close();
  queue = undefined;
}
