import type { WorkerOptions } from 'bullmq';
import { log } from '~/utils/logger.server';
import { noteRedisFailure } from '~/utils/redis.server';

/**
 * How a worker holds its jobs (ADR 38). A job's lock lasts `JOB_LOCK_MS`; its worker renews it
 * every quarter of that, so a live job keeps it unless the worker cannot reach Redis for three
 * quarters of the lock in a row. A killed worker's lock lapses within `JOB_LOCK_MS`, and every
 * worker looks for lapsed locks every fifth of it: BullMQ moves a job back to the queue on the
 * second look that finds it unrenewed, so a crashed worker's jobs run again within about
 * 1.2 x `JOB_LOCK_MS` (12 s by default) of the crash, on any worker still or newly running.
 */
export function jobLockSettings(lockMs: number) {
  return {
    lockDuration: lockMs,
    lockRenewTime: Math.round(lockMs / 4),
    stalledInterval: Math.round(lockMs / 5),
    // A worker whose fetch failed (Redis away) tries again after this, not BullMQ's 15 s: work
    // swept in when Redis returns starts at once (ADR 38).
    runRetryDelay: 1_000,
  } satisfies Partial<WorkerOptions>;
}

/** The longest a crashed worker's job waits before another worker starts it again. */
export function crashRecoveryBoundMs(lockMs: number) {
  const { lockDuration, stalledInterval } = jobLockSettings(lockMs);
  return lockDuration + stalledInterval;
}

/** A worker's error: an outage is logged once for every queue (ADR 38), anything else each time. */
export function reportWorkerError(queue: string, error: Error) {
  if (!noteRedisFailure(`worker:${queue}`, error)) log.error('worker.error', { queue, error });
}
