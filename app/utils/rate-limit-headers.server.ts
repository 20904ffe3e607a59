import { contextSlot } from './async-context.server';

/**
 * The `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers (IETF draft
 * "RateLimit header fields for HTTP") of an `/api` answer, ADR 0057. Every limit a request counts
 * (rate-limit.server.ts `hit`) is noted here for the request under way, and the API's route
 * wrapper (`guardApi`) puts the tightest of them on its answer, success or 429 alike: so every
 * limited route tells its client where it stands without each route saying so.
 */
export interface CountedLimit {
  max: number;
  /** Units counted in the window, this request's included. */
  consumed: number;
  resetSeconds: number;
}

const countedByRequest = contextSlot<Map<string, CountedLimit>>('counted limits');

/** Called by `hit` with each limit's count (a refund's corrected count replaces the first). */
export function noteCountedLimit(name: string, counted: CountedLimit) {
  countedByRequest.get()?.set(name, counted);
}

/** Runs one API request's work, noting the limits it counts. */
export function withCountedLimits<T>(run: () => Promise<T>) {
  const counted = new Map<string, CountedLimit>();
  return countedByRequest.run(counted, async () => ({ value: await run(), counted }));
}

/** The headers of the tightest limit counted (the fewest left), or none. */
export function rateLimitHeaders(counted: Map<string, CountedLimit>): Record<string, string> {
  let tightest: CountedLimit | undefined;
  const left = (limit: CountedLimit) => Math.max(limit.max - limit.consumed, 0);
  for (const limit of counted.values())
    if (!tightest || left(limit) < left(tightest)) tightest = limit;
  if (!tightest) return {};
  return {
    'RateLimit-Limit': String(tightest.max),
    'RateLimit-Remaining': String(left(tightest)),
    'RateLimit-Reset': String(tightest.resetSeconds),
  };
}
