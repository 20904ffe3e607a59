import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { finishCourse } from '~/services/course-completion.server';
import { requireApiUser } from '~/utils/auth.server';
import { requiredText, requireValidBody } from '~/utils/validation.server';
import { failureJson, guardApi } from '~/utils/responses.server';

const schema = z.object({ courseId: requiredText(100) });

/**
 * POST /api/finish {courseId} -> {success}. Only the course's owner, only when
 * every lesson is done; finishing again answers with the first record.
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('finish', async () => {
    const user = await requireApiUser(request);
    const { courseId } = await requireValidBody(request, schema);
    const result = await finishCourse(user.id, courseId);
    if (!result.ok) return failureJson(result);
    const { completion } = result.value;
    return Response.json({
      success: true,
      certificateId: completion.certificateId,
      completedAt: completion.completedAt.toISOString(),
    });
  });
}

export function loader() {
  return Response.json(
    { success: false, message: 'Method not allowed' },
    { status: 405, headers: { Allow: 'POST' } },
  );
}
