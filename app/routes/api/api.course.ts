import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import {
  contentToTopics,
  contentWriteRefusal,
  courseContent,
  courseRecord,
  parseContent,
} from '~/services/course-content.server';
import { getCourseForUser } from '~/models/courses.server';
import { createCourseFromContent } from '~/services/course-generation.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody } from '~/utils/validation.server';
import { apiError, failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { idempotent } from '~/utils/idempotency.server';
import { withAbsoluteImages } from '~/api/absolute-images.server';
import { MAX_COURSE_BODY_BYTES } from '~/domain/content-limits';
import type { RouteBodyLimit } from '~/load-context';

/** A whole course, as JSON (server/body-limit.ts). */
export const bodyLimit: RouteBodyLimit = { bytes: MAX_COURSE_BODY_BYTES };

const notFound = () => apiError(404, 'Not Found');

/** GET /api/course?courseId=: one of the caller's courses as a course record, with its content. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return guardApi('course.loader', async () => {
    const user = await requireApiUser(request, context);
    const course = await getCourseForUser(
      new URL(request.url).searchParams.get('courseId') ?? '',
      user.id,
    );
    if (!course) return notFound();
    return apiJson(API.course, 200, {
      success: true,
      course: withAbsoluteImages(await courseRecord(course, await courseContent(course)), request),
    });
  });
}

/**
 * POST /api/course { content, type, mainTopic }: stores the course as rows for
 * the caller (a `user` other than the caller is refused); lessons without
 * theory are generated in the background.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('course.action', async () => {
    const user = await requireApiUser(request, context);
    return idempotent(request, user.id, async () => {
      const body = await requireValidBody(request, API.createCourse.body);
      if (body.user && body.user !== user.id)
        return apiError(403, 'You can only create courses for yourself', { param: 'user' });
      const refused = await contentWriteRefusal(user.id);
      if (refused) return failureJson(refused);
      const topics = await parseContent(body.content);
      if (!topics.ok) return failureJson(topics);
      const created = await createCourseFromContent(user, {
        mainTopic: body.mainTopic,
        type: body.type,
        language: body.language,
        topics: contentToTopics(topics.value),
      });
      if (!created.ok) return failureJson(created);
      return apiJson(API.createCourse, 200, {
        success: true,
        message: 'Course created successfully',
        courseId: created.value,
        completed: false,
      });
    });
  });
}
