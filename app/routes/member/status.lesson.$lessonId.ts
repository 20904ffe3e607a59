import type { LoaderFunctionArgs } from '@remix-run/node';
import { lessonDraftStream } from '~/services/lesson-stream.server';
import { lessonOfMember } from '~/services/member-lessons.server';
import { requireApiUser } from '~/utils/auth.server';
import { statusJson } from '~/utils/long-poll.server';

/** GET: the lesson as it is being written, as server-sent events (see lesson-stream.server.ts). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const lesson = await lessonOfMember(params.lessonId, user.id);
  if (!lesson) return statusJson({ success: false, message: 'Not Found' }, 404);
  return lessonDraftStream(request, lesson, user.id);
}
