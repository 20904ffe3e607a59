import { DelayedError, type Job, type JobsOptions } from 'bullmq';
import { wakeAfter } from '~/utils/ai-rate-limit.server';
import { log } from '~/utils/logger.server';

/**
 * "Retry without limit": BullMQ needs a number, so a count no job will ever
 * reach; the delay between tries grows exponentially and is capped.
 */
const UNLIMITED_ATTEMPTS = 1_000_000;
const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 60_000;
export const UNLIMITED_BACKOFF_TYPE = 'capped-exponential';

/** The cap for failures that repeat (an unusable answer, a refusal): each try is a paid call. */
export const REPEATING_BACKOFF_CAP_MS = 60 * 60_000;

/** Delay before try `attemptsMade + 1`: exponential, capped, with ±20% jitter so retries spread out. */
export function cappedBackoffDelay(
  attemptsMade: number,
  random: () => number = Math.random,
  baseMs = BACKOFF_BASE_MS,
  capMs = BACKOFF_CAP_MS,
): number {
  const exponent = Math.min(Math.max(attemptsMade - 1, 0), 30);
  const delay = Math.min(capMs, baseMs * 2 ** exponent);
  return Math.round(delay * (0.8 + random() * 0.4));
}

/**
 * The delay before the next try of a job that failed: the provider's Retry-After when it gave
 * one, else the short capped backoff for transient failures and the long one for repeating ones.
 */
export function retryDelay(
  attemptsMade: number,
  failure: { kind: 'transient' | 'unusable' | 'repeating'; retryAfterMs?: number },
  baseMs = BACKOFF_BASE_MS,
  random: () => number = Math.random,
): number {
  if (failure.retryAfterMs !== undefined)
    return Math.min(failure.retryAfterMs, REPEATING_BACKOFF_CAP_MS);
  const cap = failure.kind === 'transient' ? BACKOFF_CAP_MS : REPEATING_BACKOFF_CAP_MS;
  return cappedBackoffDelay(attemptsMade, random, baseMs, cap);
}

export const retryForeverOptions: JobsOptions = {
  attempts: UNLIMITED_ATTEMPTS,
  backoff: { type: UNLIMITED_BACKOFF_TYPE },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
};

/** A failure as one line for the job's row and log: "Name: message". */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Progress is for the queue monitor only: a job whose Redis key vanished (Redis restarted
 * empty) must not fail, and above all must not record that as a failure of the work it did.
 */
export async function reportProgress(job: Job, percent: number) {
  try {
    await job.updateProgress(percent);
  } catch (error) {
    log.warn('job.progress_lost', {
      queue: job.queueName,
      jobId: job.id,
      error: errorMessage(error),
    });
  }
}

/**
 * A try refused for rate (the shared AI budget spent, or the provider's 429 with a Retry-After,
 * ADR 0024) is no failure: `putBack` restores the row's waiting state, and the job goes back to
 * delayed until then without using an attempt (BullMQ's moveToDelayed skips the attempt count).
 * Returns when the failure is of another kind, for the caller to record and throw it.
 */
export async function waitOutRateLimit(
  job: Job,
  token: string | undefined,
  error: unknown,
  failure: { rateLimited?: boolean; retryAfterMs?: number },
  putBack: () => void | Promise<void>,
): Promise<void> {
  if (!failure.rateLimited || failure.retryAfterMs === undefined || token === undefined) return;
  await putBack();
  const waitMs = wakeAfter(failure.retryAfterMs);
  log.info('job.rate_limited', {
    queue: job.queueName,
    jobId: job.id,
    waitMs,
    error: errorMessage(error),
  });
  await job.moveToDelayed(Date.now() + waitMs, token);
  throw new DelayedError();
}
