import type { LoaderFunctionArgs } from '@remix-run/node';
import { courseRecord } from '~/services/course-content.server';
import { coursePage, coursePageRequest, DEFAULT_COURSE_PAGE } from '~/services/course-list.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';

/**
 * GET /api/courses: the caller's courses, newest first, without their content, a page at a
 * time (`limit` 1–100, default 50; `cursor` from the previous page's `X-Next-Cursor`, also
 * given as a `Link: rel="next"`). `userId` is accepted for the original clients but must be
 * the caller's own. The express server answers this path by calling this loader directly.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return guardApi('courses', async () => {
    const user = await requireApiUser(request, context);
    const url = new URL(request.url);
    const userId = url.searchParams.get('userId');
    if (userId && userId !== user.id)
      return Response.json(
        { success: false, message: 'You can only list your own courses' },
        { status: 403 },
      );
    const paging = coursePageRequest(url.searchParams, DEFAULT_COURSE_PAGE);
    if (!paging.ok) return failureJson(paging);
    const page = coursePage(user.id, paging.value);
    const headers: Record<string, string> = {};
    if (page.nextCursor) {
      const next = new URL(url);
      next.searchParams.set('cursor', page.nextCursor);
      headers['X-Next-Cursor'] = page.nextCursor;
      headers.Link = `<${next.pathname}${next.search}>; rel="next"`;
    }
    return Response.json(
      page.courses.map((course) => courseRecord({ ...course, userId: user.id })),
      { headers },
    );
  });
}
