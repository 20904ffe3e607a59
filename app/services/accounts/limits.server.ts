import type { Failure } from '~/domain/result';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import {
  tooManyRequestsFailure,
  type RateLimit,
  type RateLimitResult,
} from '~/utils/rate-limit.server';

/**
 * Limits on guessing and on abuse. Reset and the profile's current password
 * count failures only; forgot, sign-up and email changes count every request. Failed sign-ins are
 * counted per account and IP, and per IP across accounts; and per account across every address
 * (guessing from rotating addresses), where a browser that signed in to the account before is
 * not counted nor stopped, so the owner is never locked out by a stranger's guesses.
 */
export const LIMITS = {
  signInAccountIp: { name: 'signin:account-ip', max: 10, windowSeconds: 15 * 60 },
  signInAccount: { name: 'signin:account', max: 20, windowSeconds: 60 * 60 },
  signInIp: { name: 'signin:ip', max: 50, windowSeconds: 15 * 60 },
  emailChangeAccount: { name: 'profile-email:account', max: 5, windowSeconds: 60 * 60 },
  emailChangeIp: { name: 'profile-email:ip', max: 20, windowSeconds: 60 * 60 },
  currentPasswordAccount: { name: 'profile-password:account', max: 10, windowSeconds: 15 * 60 },
  forgotAccount: { name: 'forgot:account', max: 5, windowSeconds: 60 * 60 },
  forgotIp: { name: 'forgot:ip', max: 20, windowSeconds: 60 * 60 },
  resetIp: { name: 'reset:ip', max: 20, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimit>;

/** Sign-ups per IP and hour: each costs a slow hash and sends an email. */
export function signUpLimit(): RateLimit {
  return { name: 'signup:ip', max: env().SIGNUPS_PER_IP_PER_HOUR, windowSeconds: 60 * 60 };
}

export function limited(results: RateLimitResult[]): Failure | null {
  const blocked = results.filter((r) => !r.allowed);
  if (blocked.length === 0) return null;
  const retryAfterSeconds = Math.max(...blocked.map((r) => r.retryAfterSeconds));
  return tooManyRequestsFailure({ retryAfterSeconds });
}

/**
 * Runs `work` once the current request has been answered: `setImmediate` comes after the
 * microtasks that write the response. The mail it queues is durable from then on (ADR 36).
 */
export function afterTheAnswer(work: () => Promise<void>) {
  setImmediate(() => {
    work().catch((error: unknown) => log.error('account.after_answer_failed', { error }));
  });
}
