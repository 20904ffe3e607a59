import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import {
  contentToTopics,
  contentWriteRefusal,
  courseRecord,
  parseContent,
} from '~/services/course-content.server';
import { getCourseForUser } from '~/models/courses.server';
import { createCourseFromContent } from '~/services/course-generation.server';
import { requireApiUser } from '~/utils/auth.server';
import { REQUIRED_FIELDS_MESSAGE, requireValidBody, requiredText } from '~/utils/validation.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { courseLanguage } from '~/utils/language.server';

const notFound = () => Response.json({ success: false, message: 'Not Found' }, { status: 404 });

/** GET /api/course?courseId=: one of the caller's courses with its content. */
export async function loader({ request }: LoaderFunctionArgs) {
  return guardApi('course.loader', async () => {
    const user = await requireApiUser(request);
    const course = getCourseForUser(
      new URL(request.url).searchParams.get('courseId') ?? '',
      user.id,
    );
    if (!course) return notFound();
    return Response.json({ success: true, course: courseRecord(course, true) });
  });
}

const courseType = z.preprocess(
  (value) =>
    typeof value === 'string' && /video/i.test(value)
      ? 'video'
      : typeof value === 'string' && /text|theory/i.test(value)
        ? 'text'
        : value,
  z.enum(['text', 'video'], { error: REQUIRED_FIELDS_MESSAGE }),
);

const createSchema = z.object({
  user: z.string().optional(),
  mainTopic: requiredText(120, { label: 'Main topic', singleLine: true }),
  type: courseType,
  content: z.unknown(),
  language: courseLanguage,
});

/**
 * POST /api/course { content, type, mainTopic }: stores the course as rows for
 * the caller (a `user` other than the caller is refused); lessons without
 * theory are generated in the background.
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('course.action', async () => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const user = await requireApiUser(request);
    const body = await requireValidBody(request, createSchema);
    if (body.user && body.user !== user.id)
      return Response.json(
        { success: false, message: 'You can only create courses for yourself' },
        { status: 403 },
      );
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
    return Response.json({
      success: true,
      message: 'Course created successfully',
      courseId: created.value,
      completed: false,
    });
  });
}
