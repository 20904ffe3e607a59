import type { ActionFunctionArgs } from '@remix-run/node';
import { deleteOwnCourse } from '~/services/course-deletion.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody } from '~/utils/validation.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/deletecourse {courseId} -> {success, message}: the caller's own course only. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('deletecourse', async () => {
    const user = await requireApiUser(request, context);
    const { courseId } = await requireValidBody(request, API.deletecourse.body);
    const result = await deleteOwnCourse(user, courseId);
    if (!result.ok) return failureJson(result);
    return apiJson(API.deletecourse, 200, { success: true, message: 'Course deleted' });
  });
}
