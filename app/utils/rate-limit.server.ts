import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { fail, type Failure } from '~/domain/result';
import { failureJson } from './responses.server';
import type { AppLoadContext } from '@remix-run/node';
import { env } from './env.server';
import { log } from './logger.server';
import { recordRateLimitRefusal } from './metrics.server';
import { noteCountedLimit } from './rate-limit-headers.server';
import { producerRedis, waitForRedis } from './redis.server';

export interface RateLimit {
  /** Names the counter, e.g. "signin:ip". */
  name: string;
  max: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
  /** Units counted in this window so far, this request's included (refused ones count too). */
  consumed: number;
}

/**
 * Fixed-window counters from `rate-limiter-flexible` (ADR 36): in Redis, shared by every web
 * process, and while Redis is away in this process's memory (the library's insurance limiter),
 * so a Redis outage lowers the limits' reach to one process instead of switching them off.
 * Keys are `<REDIS_PREFIX>:ratelimit:<name>:<key>`, as before the library.
 */
const limitersByConnection = new WeakMap<Redis, Map<string, RateLimiterRedis>>();

function limiterFor(limit: RateLimit): RateLimiterRedis {
  const redis = producerRedis();
  let limiters = limitersByConnection.get(redis);
  if (!limiters) limitersByConnection.set(redis, (limiters = new Map()));
  const keyPrefix = `${env().REDIS_PREFIX}:ratelimit:${limit.name}`;
  const id = `${keyPrefix}|${limit.max}|${limit.windowSeconds}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: limit.max,
      duration: limit.windowSeconds,
      // Not connected: count in memory at once rather than wait for a command to fail.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({
        keyPrefix,
        points: limit.max,
        duration: limit.windowSeconds,
      }),
    });
    limiters.set(id, limiter);
  }
  return limiter;
}

/**
 * How long a request waits for a Redis connection that is still opening (a process's first
 * requests), rather than count in memory what Redis would not see.
 */
const OPENING_WAIT_MS = 1_000;

/**
 * Resolves once the connection is ready, or at once when this process knows Redis is away (or
 * the opening fails, or takes OPENING_WAIT_MS): the limits are counted in memory then.
 */
async function redisUnlessAway(): Promise<void> {
  if (producerRedis().status === 'ready') return;
  await waitForRedis(OPENING_WAIT_MS).catch(() => undefined);
}

let countingInMemory = false;

/** One log line when the limits move to memory and one when they are back in Redis. */
function noteWhereCounted(limit: RateLimit) {
  const inMemory = producerRedis().status !== 'ready';
  if (inMemory === countingInMemory) return;
  countingInMemory = inMemory;
  if (inMemory) log.warn('ratelimit.in_memory', { limit: limit.name, until: 'Redis is back' });
  else log.info('ratelimit.redis_back', { limit: limit.name });
}

function resultOf(res: RateLimiterRes, allowed: boolean): RateLimitResult {
  return {
    allowed,
    retryAfterSeconds: Math.max(Math.ceil(res.msBeforeNext / 1000), 1),
    consumed: res.consumedPoints,
  };
}

/**
 * Counts `cost` units (default 1) of a limit for `key`; a negative cost gives units back. Allowed
 * while the window's count stays within `max`.
 */
export async function hit(limit: RateLimit, key: string, cost = 1): Promise<RateLimitResult> {
  await redisUnlessAway();
  noteWhereCounted(limit);
  const limiter = limiterFor(limit);
  const noted = (result: RateLimitResult) => {
    noteCountedLimit(limit.name, {
      max: limit.max,
      consumed: result.consumed,
      resetSeconds: result.retryAfterSeconds,
    });
    return result;
  };
  try {
    if (cost < 0) return noted(resultOf(await limiter.reward(key, -cost), true));
    return noted(resultOf(await limiter.consume(key, cost), true));
  } catch (refused) {
    if (refused instanceof RateLimiterRes) {
      // Labelled by the limit's name ("signin:ip"), never by its key (an IP, a member).
      recordRateLimitRefusal(limit.name);
      return noted(resultOf(refused, false));
    }
    // Neither Redis nor memory could count (never expected): let the request through, loudly.
    log.error('ratelimit.failed', { limit: limit.name, error: refused });
    return { allowed: true, retryAfterSeconds: 0, consumed: 0 };
  }
}

/** Forgets a key's count, e.g. the failed sign-ins of an account after a good one. */
export async function clear(limit: RateLimit, key: string) {
  await redisUnlessAway();
  try {
    await limiterFor(limit).delete(key);
  } catch (error) {
    log.warn('ratelimit.clear_failed', { limit: limit.name, error });
  }
}

/**
 * Gives back one hit, so that a limiter can count only what went wrong: hit before the attempt,
 * refund it when the attempt turns out good. Hitting first keeps parallel guesses bounded.
 */
export async function refund(limit: RateLimit, key: string) {
  await hit(limit, key, -1);
}

/** A refused limit as a use case's failure: 429, a readable wait and the Retry-After seconds. */
export function tooManyRequestsFailure(
  result: Pick<RateLimitResult, 'retryAfterSeconds'>,
): Failure {
  const minutes = Math.ceil(result.retryAfterSeconds / 60);
  return fail(
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    429,
    result.retryAfterSeconds,
  );
}

/** A 429 with the API's JSON shape and a Retry-After header. */
export function tooManyRequests(result: RateLimitResult) {
  return failureJson(tooManyRequestsFailure(result));
}

/**
 * The client's address as the web server saw it (Express's req.ip, which
 * honours X-Forwarded-For only when TRUST_PROXY is set), so a client cannot
 * dodge a per-IP limit by sending its own header.
 */
export function clientIp(context: AppLoadContext): string {
  return context.clientIp ?? 'unknown';
}
