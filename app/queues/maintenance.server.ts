import { z } from 'zod';
import { defineQueue } from './factory.server';

/**
 * `purge-expired` removes expired sessions and reset tokens. `end-paid-periods`
 * drops members whose cancelled subscription has run out to the free plan.
 * `reconcile-billing` re-fetches its share of the subscriptions a lost webhook may have left wrong. `selftest` holds
 * the worker for `holdMs` and reports back: an end-to-end check of the queue
 * path (used by tests and when diagnosing a deployment).
 */
export const maintenanceQueue = defineQueue({
  name: 'maintenance',
  payload: z.discriminatedUnion('task', [
    z.object({ task: z.literal('purge-expired') }),
    z.object({ task: z.literal('end-paid-periods') }),
    // A round of the reconciliation; every live subscription is re-checked once per periodMinutes.
    z.object({
      task: z.literal('reconcile-billing'),
      periodMinutes: z.number().int().min(1).max(1440).optional(),
    }),
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

/**
 * The schedules; upserting keeps exactly one of each however often the worker restarts. The
 * reconciliation runs a round a minute, each taking its share of the subscriptions, so that all of
 * them are re-checked every `reconcileEveryMinutes` without a burst at the provider (ADR 0037).
 */
export async function scheduleMaintenance(reconcileEveryMinutes = 60) {
  const hourly = { every: 60 * 60 * 1000 };
  await maintenanceQueue.queue().upsertJobScheduler(
    'reconcile-billing',
    { every: 60 * 1000 },
    {
      name: 'reconcile-billing',
      data: { task: 'reconcile-billing', periodMinutes: reconcileEveryMinutes },
    },
  );
  await maintenanceQueue.queue().upsertJobScheduler('purge-expired-hourly', hourly, {
    name: 'purge-expired',
    data: { task: 'purge-expired' },
  });
  await maintenanceQueue.queue().upsertJobScheduler('end-paid-periods-hourly', hourly, {
    name: 'end-paid-periods',
    data: { task: 'end-paid-periods' },
  });
}
