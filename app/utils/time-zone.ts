/**
 * The member's day, for "due today" and "due tomorrow" (ADR 0033). The browser names its time
 * zone in a cookie (`TimeZoneCookie` sets it); until it has, days are UTC days. Browser-safe.
 */
export const TIME_ZONE_COOKIE = 'tz';
const DEFAULT_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** An IANA zone name this runtime knows ('Europe/Berlin'), not just any text. */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value))
    return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The zone named in a Cookie header, or UTC when none (or an unknown one) is. */
export function timeZoneFromCookies(cookieHeader: string | null | undefined): string {
  const match = new RegExp(`(?:^|;\\s*)${TIME_ZONE_COOKIE}=([^;]*)`).exec(cookieHeader ?? '');
  let value: string | undefined;
  try {
    value = match ? decodeURIComponent(match[1]!) : undefined;
  } catch {
    value = undefined;
  }
  return isTimeZone(value) ? value : DEFAULT_TIME_ZONE;
}

/** The wall-clock date and time of an instant in a zone. */
function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far the zone's clocks are ahead of UTC at an instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const wholeSecond = instant - (((instant % 1000) + 1000) % 1000);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - wholeSecond;
}

/** The instant a local date's day begins (`day` may overflow the month: Date.UTC carries it). */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  // Twice: the offset at midnight may differ from the offset at the first guess (a DST change).
  const guess = midnightAsUtc - offsetAt(midnightAsUtc, timeZone);
  return midnightAsUtc - offsetAt(guess, timeZone);
}

/** When tomorrow and the day after begin in the member's zone, as seen at `now`. */
export function dayBounds(now: Date, timeZone: string): { tomorrow: Date; dayAfter: Date } {
  const today = wallClock(now.getTime(), timeZone);
  return {
    tomorrow: new Date(startOfLocalDay(today.year, today.month, today.day + 1, timeZone)),
    dayAfter: new Date(startOfLocalDay(today.year, today.month, today.day + 2, timeZone)),
  };
}
