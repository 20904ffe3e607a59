import { fail, ok, type Result } from '~/domain/result';
import { listCoursesForUser, type CourseCard, type CourseKey } from '~/models/courses.server';

/** Pages of a member's courses, newest first (issue 16: a big account's first page is as fast). */
export const DEFAULT_COURSE_PAGE = 50;
export const MAX_COURSE_PAGE = 100;
/** What /home shows at a time. */
export const HOME_COURSE_PAGE = 24;

export const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_COURSE_PAGE}`;
export const CURSOR_MESSAGE = 'The cursor is not valid: use the X-Next-Cursor of a previous page';

export interface CoursePage {
  courses: CourseCard[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

/**
 * The cursor names the last course of the page (its creation time and id), so the next page
 * starts right after it however many courses were created meanwhile, and nothing is skipped or
 * repeated. Opaque to clients: base64url, not a promise about its contents.
 */
export function encodeCursor(key: CourseKey): string {
  return Buffer.from(`${key.createdAtMs}.${key.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): CourseKey | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(
    Buffer.from(cursor, 'base64url').toString('utf8'),
  );
  return match ? { createdAtMs: Number(match[1]), id: match[2]! } : null;
}

/** `limit` and `cursor` from a query string; a malformed one is a 400 naming it. */
export function coursePageRequest(
  query: URLSearchParams,
  defaultLimit: number,
): Result<{ limit: number; after: CourseKey | null }> {
  const rawLimit = query.get('limit');
  let limit = defaultLimit;
  if (rawLimit !== null) {
    if (!/^\d{1,3}$/.test(rawLimit)) return fail(LIMIT_MESSAGE, 400);
    limit = Number(rawLimit);
    if (limit < 1 || limit > MAX_COURSE_PAGE) return fail(LIMIT_MESSAGE, 400);
  }
  const rawCursor = query.get('cursor');
  if (rawCursor === null || rawCursor === '') return ok({ limit, after: null });
  const after = decodeCursor(rawCursor);
  return after ? ok({ limit, after }) : fail(CURSOR_MESSAGE, 400);
}

/** One page of the member's own courses; one more row is read to know whether another follows. */
export function coursePage(
  userId: string,
  { limit, after }: { limit: number; after: CourseKey | null },
): CoursePage {
  const rows = listCoursesForUser(userId, { limit: limit + 1, after });
  const courses = rows.slice(0, limit);
  const last = courses[courses.length - 1];
  return {
    courses,
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ createdAtMs: last.createdAt.getTime(), id: last.id })
        : null,
  };
}
