import { fail, type Failure } from '~/domain/result';
import { failureJson } from './responses.server';
import type { AppLoadContext } from '@remix-run/node';
import { env } from './env.server';
import { log } from './logger.server';
import { producerRedis } from './redis.server';

export interface RateLimit {
  /** Names the counter, e.g. "signin:ip". */
  name: string;
  max: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counter in Redis, shared by every web process. `cost` is how
 * many units this request uses (default 1). When Redis is unreachable the
 * request is allowed (and logged): a rate limiter must not take the product
 * down with it.
 */
export async function hit(limit: RateLimit, key: string, cost = 1): Promise<RateLimitResult> {
  const redisKey = `${env().REDIS_PREFIX}:ratelimit:${limit.name}:${key}`;
  try {
    const results = await producerRedis()
      .multi()
      .incrby(redisKey, cost)
      .expire(redisKey, limit.windowSeconds, 'NX')
      .ttl(redisKey)
      .exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const ttl = Number(results?.[2]?.[1] ?? limit.windowSeconds);
    return { allowed: count <= limit.max, retryAfterSeconds: Math.max(ttl, 1) };
  } catch (error) {
    log.warn('ratelimit.unavailable', { limit: limit.name, error });
    return { allowed: true, retryAfterSeconds: 0 };
  }
}

/** Forgets a key's count, e.g. the failed sign-ins of an account after a good one. */
export async function clear(limit: RateLimit, key: string) {
  try {
    await producerRedis().del(`${env().REDIS_PREFIX}:ratelimit:${limit.name}:${key}`);
  } catch (error) {
    log.warn('ratelimit.unavailable', { limit: limit.name, error });
  }
}

/**
 * Gives back one hit (never below zero, never on an expired window), so that a
 * limiter can count only what went wrong: hit before the attempt, refund it
 * when the attempt turns out good. Hitting first keeps parallel guesses bounded.
 */
export async function refund(limit: RateLimit, key: string) {
  try {
    await producerRedis().eval(
      "if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then return redis.call('DECR', KEYS[1]) end return 0",
      1,
      `${env().REDIS_PREFIX}:ratelimit:${limit.name}:${key}`,
    );
  } catch (error) {
    log.warn('ratelimit.unavailable', { limit: limit.name, error });
  }
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
