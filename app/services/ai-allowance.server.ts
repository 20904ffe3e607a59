import type { User } from '~/models/users.server';
import { env } from '~/utils/env.server';
import {
  hit,
  tooManyRequests,
  type RateLimit,
  type RateLimitResult,
} from '~/utils/rate-limit.server';
import { waitForRedis } from '~/utils/redis.server';
import { apiError } from '~/utils/responses.server';

const aiLimit = (): RateLimit => ({
  name: 'ai:member',
  max: env().AI_REQUESTS_PER_HOUR,
  windowSeconds: 3600,
});

/**
 * Every call that makes the product pay a vendor counts against the member's
 * hourly allowance, so the /api routes are never an open proxy. `cost` is the
 * number of vendor calls a request starts: 1 for an outline or a direct /api
 * AI or media call, one per lesson to generate for a new course (each lesson
 * job is an AI call plus a media search). A refused request uses nothing: its
 * cost is given back, so a course too large to fit leaves room for smaller requests.
 */
export async function aiAllowance(user: Pick<User, 'id'>, cost = 1): Promise<RateLimitResult> {
  // The producer connection does not queue commands: let a fresh one connect first.
  await waitForRedis(2000).catch(() => undefined);
  const limit = aiLimit();
  const result = await hit(limit, user.id, cost);
  if (!result.allowed) await hit(limit, user.id, -cost);
  return result;
}

/** Gives back what a request counted when the vendor call it paid for failed (the tutor). */
export async function giveBackAiAllowance(user: Pick<User, 'id'>, cost = 1) {
  await hit(aiLimit(), user.id, -cost);
}

/** Throws the 429 response when the request's cost does not fit in the member's allowance. */
export async function requireAiAllowance(user: Pick<User, 'id'>, cost = 1) {
  const result = await aiAllowance(user, cost);
  if (!result.allowed) throw tooManyRequests(result);
}

export function vendorUnavailable(what: string) {
  return apiError(502, `The ${what} service is unavailable. Please try again.`, {
    code: 'service_unavailable',
  });
}
