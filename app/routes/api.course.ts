import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import {
  contentToTopics,
  CONTENT_MESSAGE,
  courseRecord,
  parseContent,
} from '~/models/course-content.server';
import { getCourseForUser } from '~/models/courses.server';
import { contentLimitMessage, createCourseFromContent } from '~/services/course-generation.server';
import { requireAiAllowance } from '~/utils/ai-rate-limit.server';
import { requireApiUser } from '~/utils/auth.server';
import { badRequest, requireValidBody, requiredText } from '~/utils/validation.server';

const notFound = () => Response.json({ success: false, message: 'Not Found' }, { status: 404 });

/** GET /api/course?courseId=: one of the caller's courses with its content. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const course = getCourseForUser(new URL(request.url).searchParams.get('courseId') ?? '', user.id);
  if (!course) return notFound();
  return Response.json({ success: true, course: courseRecord(course, true) });
}

const courseType = z.preprocess(
  (value) =>
    typeof value === 'string' && /video/i.test(value)
      ? 'video'
      : typeof value === 'string' && /text|theory/i.test(value)
        ? 'text'
        : value,
  z.enum(['text', 'video'], { error: 'Please fill in all required fields' }),
);

const createSchema = z.object({
  user: z.string().optional(),
  mainTopic: requiredText(120),
  type: courseType,
  content: z.unknown(),
});

/**
 * POST /api/course { content, type, mainTopic }: stores the course as rows for
 * the caller (a `user` other than the caller is refused); lessons without
 * theory are generated in the background.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return new Response(null, { status: 405 });
  const user = await requireApiUser(request);
  const body = await requireValidBody(request, createSchema);
  if (body.user && body.user !== user.id)
    return Response.json(
      { success: false, message: 'You can only create courses for yourself' },
      { status: 403 },
    );
  const topics = parseContent(body.content);
  if (!topics) return badRequest(CONTENT_MESSAGE);
  const refused = contentLimitMessage(user, { topicCount: topics.length, type: body.type });
  if (refused) return Response.json({ success: false, message: refused }, { status: 403 });
  if (topics.some((topic) => topic.subtopics.some((lesson) => !lesson.theory)))
    await requireAiAllowance(user);
  const courseId = await createCourseFromContent(user, {
    mainTopic: body.mainTopic,
    type: body.type,
    topics: contentToTopics(topics),
  });
  return Response.json({
    success: true,
    message: 'Course created successfully',
    courseId,
    completed: false,
  });
}
