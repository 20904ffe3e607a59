import type { ActionFunctionArgs } from '@remix-run/node';
import {
  applyContentUpdate,
  CONTENT_MESSAGE,
  contentWriteRefusal,
  parseContent,
} from '~/services/course-content.server';
import { getCourseForUser } from '~/models/courses.server';
import { requireApiUser } from '~/utils/auth.server';
import { badRequest, requireValidBody } from '~/utils/validation.server';
import { apiError, failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { MAX_COURSE_BODY_BYTES } from '~/domain/content-limits';
import type { RouteBodyLimit } from '~/load-context';

/** A whole course, as JSON (server/body-limit.ts). */
export const bodyLimit: RouteBodyLimit = { bytes: MAX_COURSE_BODY_BYTES };

/** POST /api/update { content, courseId }: done marks (and any content given), lesson by lesson. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('update', async () => {
    const user = await requireApiUser(request, context);
    const body = await requireValidBody(request, API.update.body);
    const course = await getCourseForUser(body.courseId, user.id);
    if (!course) return apiError(404, 'Not Found', { param: 'courseId' });
    const refused = await contentWriteRefusal(user.id);
    if (refused) return failureJson(refused);
    const topics = await parseContent(body.content);
    if (!topics.ok) return failureJson(topics);
    if (!(await applyContentUpdate(course.id, topics.value)))
      return badRequest(CONTENT_MESSAGE, 'content');
    return apiJson(API.update, 200, { success: true, message: 'Course updated successfully' });
  });
}
