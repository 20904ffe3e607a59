import type { ActionFunctionArgs } from '@remix-run/node';
import { finishCourse } from '~/services/course-completion.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody } from '~/utils/validation.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/finish {courseId} -> {success}. Only the course's owner, only when
 * every lesson is done; finishing again answers with the first record.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('finish', async () => {
    const user = await requireApiUser(request, context);
    const { courseId } = await requireValidBody(request, API.finish.body);
    const result = await finishCourse(user.id, courseId);
    if (!result.ok) return failureJson(result);
    const { completion } = result.value;
    return apiJson(API.finish, 200, {
      success: true,
      certificateId: completion.certificateId,
      completedAt: completion.completedAt.toISOString(),
    });
  });
}
