import { fail, ok, type Result } from '~/domain/result';
import { listCoursesForUser, type CourseCard, type CourseKey } from '~/models/courses.server';
import { courseContents, courseRecord } from './course-content.server';

/**
 * Pages of a member's courses, newest first (issue 16: a big account's first page is as fast).
 * The API's default is its most, so a client reading one page gets every course of a normal
 * member (ADR 0035).
 */
const MAX_COURSE_PAGE = 100;
export const DEFAULT_COURSE_PAGE = MAX_COURSE_PAGE;
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
function encodeCursor(key: CourseKey): string {
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
export async function coursePage(
  userId: string,
  { limit, after }: { limit: number; after: CourseKey | null },
): Promise<CoursePage> {
  const rows = await listCoursesForUser(userId, { limit: limit + 1, after });
  return cutPage(rows, limit, rows.length > limit);
}

/** The first `keep` of `rows`, with the cursor after the last kept when more follow. */
function cutPage(rows: CourseCard[], keep: number, moreFollow: boolean): CoursePage {
  const courses = rows.slice(0, keep);
  const last = courses[courses.length - 1];
  return {
    courses,
    nextCursor:
      moreFollow && last
        ? encodeCursor({ createdAtMs: last.createdAt.getTime(), id: last.id })
        : null,
  };
}

/**
 * The API's page of course records with their content (JSON text): at most `limit` courses and,
 * past the first course, about CONTENT_PAGE_CHARS of content, so a member with many long
 * courses gets several answers of bounded size instead of one the server must hold whole.
 */
const CONTENT_PAGE_CHARS = 8_000_000;

export async function courseRecordPage(
  userId: string,
  paging: { limit: number; after: CourseKey | null },
  contentBudget = CONTENT_PAGE_CHARS,
) {
  const rows = await listCoursesForUser(userId, { limit: paging.limit + 1, after: paging.after });
  const wanted = rows.slice(0, paging.limit);
  const contents = await courseContents(wanted);
  const records = [];
  let chars = 0;
  for (const course of wanted) {
    const record = await courseRecord(course, contents.get(course.id)!);
    chars += record.content.length;
    if (records.length > 0 && chars > contentBudget) break;
    records.push(record);
  }
  const page = cutPage(rows, records.length, rows.length > records.length);
  return { records, nextCursor: page.nextCursor };
}
