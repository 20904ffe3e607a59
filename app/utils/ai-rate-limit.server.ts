import type { User } from '~/models/users.server';
import { env } from './env.server';
import { hit, tooManyRequests, type RateLimitResult } from './rate-limit.server';
import { waitForRedis } from './redis.server';

/**
 * Every call that makes the product pay a vendor (AI, image or video search)
 * counts against the member's hourly allowance, so the /api routes are never
 * an open proxy.
 */
export async function aiAllowance(user: Pick<User, 'id'>): Promise<RateLimitResult> {
  // The producer connection does not queue commands: let a fresh one connect first.
  await waitForRedis(2000).catch(() => undefined);
  return hit({ name: 'ai:member', max: env().AI_REQUESTS_PER_HOUR, windowSeconds: 3600 }, user.id);
}

/** Throws the 429 response when the member's allowance is used up. */
export async function requireAiAllowance(user: Pick<User, 'id'>) {
  const result = await aiAllowance(user);
  if (!result.allowed) throw tooManyRequests(result);
}

export function vendorUnavailable(what: string) {
  return Response.json(
    { success: false, message: `The ${what} service is unavailable. Please try again.` },
    { status: 502 },
  );
}
