import type { LoaderFunctionArgs } from '@remix-run/node';
import { courseRecord } from '~/services/course-content.server';
import { listCoursesForUser } from '~/models/courses.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';

/**
 * GET /api/courses: the caller's courses, newest first, without their content.
 * `userId` is accepted for the original clients but must be the caller's own.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return guardApi('courses', async () => {
    const user = await requireApiUser(request);
    const userId = new URL(request.url).searchParams.get('userId');
    if (userId && userId !== user.id)
      return Response.json(
        { success: false, message: 'You can only list your own courses' },
        { status: 403 },
      );
    return Response.json(
      listCoursesForUser(user.id).map((course) => courseRecord({ ...course, userId: user.id })),
    );
  });
}
