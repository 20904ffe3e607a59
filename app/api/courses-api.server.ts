import {
  courseRecordPage,
  coursePageRequest,
  DEFAULT_COURSE_PAGE,
} from '~/services/course-list.server';
import { requireApiUser } from '~/utils/auth.server';
import { jsonRoute } from '~/utils/json-route.server';
import { apiError, failureJson } from '~/utils/responses.server';
import { withAbsoluteImages } from './absolute-images.server';
import { API, type ApiBody } from './contract.server';

/**
 * GET /api/courses: the caller's courses as the spec's course records (with their content),
 * newest first, a page at a time (`limit` 1–100, default 100; `cursor` from the previous page's
 * `X-Next-Cursor`, also given as a `Link: rel="next"`; ADR 0035). `userId` is accepted for the
 * original clients but must be the caller's own. The hottest API read: the express server calls
 * `coursesApi.answer` directly (ADR 0023).
 */
export const coursesApi = jsonRoute('courses', async (request, context) => {
  const user = await requireApiUser(request, context);
  const url = new URL(request.url);
  const userId = url.searchParams.get('userId');
  if (userId && userId !== user.id)
    return apiError(403, 'You can only list your own courses', { param: 'userId' });
  const paging = coursePageRequest(url.searchParams, DEFAULT_COURSE_PAGE);
  if (!paging.ok) return failureJson(paging);
  const page = await courseRecordPage(user.id, paging.value);
  const headers: Record<string, string> = {};
  if (page.nextCursor) {
    const next = new URL(url);
    next.searchParams.set('cursor', page.nextCursor);
    headers['X-Next-Cursor'] = page.nextCursor;
    headers.Link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  const body: ApiBody<typeof API.courses, 200> = page.records.map((record) =>
    withAbsoluteImages(record, request),
  );
  return { body, headers };
});
