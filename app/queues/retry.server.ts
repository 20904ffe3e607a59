import type { JobsOptions } from 'bullmq';

/**
 * "Retry without limit": BullMQ needs a number, so a count no job will ever
 * reach; the delay between tries grows exponentially and is capped.
 */
export const UNLIMITED_ATTEMPTS = 1_000_000;
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 60_000;
export const UNLIMITED_BACKOFF_TYPE = 'capped-exponential';

/** Delay before try `attemptsMade + 1`: exponential, capped, with ±20% jitter so retries spread out. */
export function cappedBackoffDelay(
  attemptsMade: number,
  random: () => number = Math.random,
  baseMs = BACKOFF_BASE_MS,
): number {
  const exponent = Math.min(Math.max(attemptsMade - 1, 0), 30);
  const delay = Math.min(BACKOFF_CAP_MS, baseMs * 2 ** exponent);
  return Math.round(delay * (0.8 + random() * 0.4));
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
