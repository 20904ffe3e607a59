import type { User } from '~/models/users.server';
import { env } from './env.server';
import { hit, tooManyRequests } from './rate-limit.server';

/**
 * Every call that makes the product pay a vendor (AI, image or video search)
 * counts against the member's hourly allowance, so the /api routes are never
 * an open proxy. Throws the 429 response when the allowance is used up.
 */
export async function requireAiAllowance(user: Pick<User, 'id'>) {
  const result = await hit(
    { name: 'ai:member', max: env().AI_REQUESTS_PER_HOUR, windowSeconds: 3600 },
    user.id,
  );
  if (!result.allowed) throw tooManyRequests(result);
}

export function vendorUnavailable(what: string) {
  return Response.json(
    { success: false, message: `The ${what} service is unavailable. Please try again.` },
    { status: 502 },
  );
}
