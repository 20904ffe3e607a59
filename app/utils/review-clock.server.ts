import { env } from './env.server';
import { timeZoneFromCookies } from './time-zone';

/** The instant and the member's time zone that flashcard scheduling works with (ADR 0033). */
export interface ReviewClock {
  now: Date;
  timeZone: string;
  /** Demo mode's clock was set by the request: pages carry `now` on to their forms. */
  set?: boolean;
}

/**
 * The clock of a review: the real time, and the member's zone from their cookie. In demo mode
 * only, a page or a test may name another instant (`?now=` or a form's `now`), which is passed
 * as FSRS's own `now`: tomorrow's reviews can be seen without waiting a day. Anywhere else the
 * value is ignored, so a member cannot move their own schedule.
 */
export function clockOf(input: {
  demo: boolean;
  requested: unknown;
  cookieHeader: string | null;
  realNow?: Date;
}): ReviewClock {
  const timeZone = timeZoneFromCookies(input.cookieHeader);
  const requested =
    input.demo && typeof input.requested === 'string' && input.requested
      ? new Date(input.requested)
      : undefined;
  if (requested && Number.isFinite(requested.getTime()))
    return { now: requested, timeZone, set: true };
  return { now: input.realNow ?? new Date(), timeZone };
}

/** `clockOf` for a request: the instant from the query string, else from the body given. */
export function reviewClock(request: Request, body?: Record<string, unknown>): ReviewClock {
  return clockOf({
    demo: env().demo,
    requested: new URL(request.url).searchParams.get('now') ?? body?.now,
    cookieHeader: request.headers.get('Cookie'),
  });
}
