import { z } from 'zod';
import { defineQueue } from './factory.server';

/**
 * `purge-expired` removes expired sessions and reset tokens. `selftest` holds
 * the worker for `holdMs` and reports back: an end-to-end check of the queue
 * path (used by tests and when diagnosing a deployment).
 */
export const maintenanceQueue = defineQueue({
  name: 'maintenance',
  payload: z.discriminatedUnion('task', [
    z.object({ task: z.literal('purge-expired') }),
    z.object({ task: z.literal('selftest'), holdMs: z.number().int().min(0).max(60_000) }),
  ]),
  jobName: (data) => data.task,
  defaultJobOptions: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 5_000 },
    removeOnComplete: { count: 100 },
    removeOnFail: { count: 100 },
  },
});

/** Hourly purge; upserting keeps exactly one schedule however often the worker restarts. */
export async function scheduleMaintenance() {
  await maintenanceQueue
    .queue()
    .upsertJobScheduler(
      'purge-expired-hourly',
      { every: 60 * 60 * 1000 },
      { name: 'purge-expired', data: { task: 'purge-expired' } },
    );
}
