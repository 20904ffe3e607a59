import { randomUUID } from 'node:crypto';
import { env } from './env.server';
import { log } from './logger.server';
import { producerRedis, waitForRedis } from './redis.server';

/**
 * The AI budget every worker and web process shares (ADR 0024): at most AI_REQUESTS_PER_MINUTE
 * calls start in any window of AI_RATE_WINDOW_MS, and none while the provider has told us to
 * wait (a 429's Retry-After pauses everyone, not only the job that got it).
 *
 * A sliding log rather than a fixed window: a fixed window lets twice the budget through
 * around a window's edge, which is exactly the burst a provider's own limiter refuses. The log
 * holds one entry per call of the last window (a few hundred at most), trimmed on every call.
 * One Lua script decides and records atomically, with Redis's clock, so processes on machines
 * whose clocks differ still share one window.
 */
const TAKE_SCRIPT = `
local pausedMs = redis.call('PTTL', KEYS[2])
if pausedMs > 0 then return pausedMs end
local limit = tonumber(ARGV[1])
if limit <= 0 then return 0 end
local window = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(tonumber(oldest[2]) + window - now, 1)
`;

/** Only ever lengthens a pause: a short Retry-After must not cut a longer one short. */
const PAUSE_SCRIPT = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 0
`;

const CONNECT_WAIT_MS = 1_500;

/** No AI call may start for `retryAfterMs`: the shared budget is spent, or the provider said so. */
export class AiRateLimited extends Error {
  override name = 'AiRateLimited';
  constructor(
    readonly retryAfterMs: number,
    readonly reason: 'budget' | 'provider',
  ) {
    super(
      reason === 'budget'
        ? `The AI budget (AI_REQUESTS_PER_MINUTE) is spent for ${retryAfterMs} ms`
        : `The AI provider asked to wait ${retryAfterMs} ms`,
    );
  }
}

function keys() {
  const prefix = `${env().REDIS_PREFIX}:ai-rate`;
  return { log: `${prefix}:log`, pause: `${prefix}:pause` };
}

/**
 * Takes one call from the budget, or throws AiRateLimited with the wait until one is free.
 * Without AI_REQUESTS_PER_MINUTE only a provider's pause can refuse. Redis away: allowed (and
 * logged), since a limiter must not stop generation on its own.
 */
export async function takeAiBudget(): Promise<void> {
  const { AI_REQUESTS_PER_MINUTE, AI_RATE_WINDOW_MS } = env();
  const { log: logKey, pause } = keys();
  let waitMs: number;
  try {
    // The producer connection fails fast while it connects; a process's first call waits for it.
    await waitForRedis(CONNECT_WAIT_MS);
    waitMs = Number(
      await producerRedis().eval(
        TAKE_SCRIPT,
        2,
        logKey,
        pause,
        AI_REQUESTS_PER_MINUTE ?? 0,
        AI_RATE_WINDOW_MS,
        randomUUID(),
      ),
    );
  } catch (error) {
    log.warn('ai_rate.unavailable', { error });
    return;
  }
  if (waitMs > 0) throw new AiRateLimited(waitMs, 'budget');
}

/** The provider answered 429 with a Retry-After: every process holds off for that long. */
export async function pauseAiCalls(ms: number): Promise<void> {
  try {
    await waitForRedis(CONNECT_WAIT_MS);
    await producerRedis().eval(PAUSE_SCRIPT, 1, keys().pause, Math.max(1, Math.ceil(ms)));
  } catch (error) {
    log.warn('ai_rate.unavailable', { error });
  }
}

/**
 * When a job refused by the budget should look again. Every job refused in the same instant
 * would otherwise wake in the same millisecond and all but a few be refused again; up to a
 * second of spread (or a quarter of the wait, if less) lets them arrive one by one.
 */
export function wakeAfter(retryAfterMs: number, random: () => number = Math.random): number {
  return Math.ceil(retryAfterMs + random() * Math.min(1_000, retryAfterMs / 4));
}
