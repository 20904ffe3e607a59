import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { lessonOfMember } from '~/services/member-lessons.server';
import { askTutor, tutorConversation } from '~/services/tutor.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';

const notFound = () => Response.json({ success: false, message: 'Not Found' }, { status: 404 });

/** GET: the member's conversation with the tutor of this lesson, oldest first. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const lesson = await lessonOfMember(params.lessonId, user.id);
  if (!lesson) return notFound();
  return Response.json(
    { messages: await tutorConversation(user.id, lesson.id) },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

/** POST { question }: the tutor's answer as server-sent events (see tutor.server.ts). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('tutor', async () => {
    if (request.method !== 'POST')
      return Response.json({ success: false, message: 'Method Not Allowed' }, { status: 405 });
    const user = await requireApiUser(request, context);
    const lesson = await lessonOfMember(params.lessonId, user.id);
    if (!lesson) return notFound();
    const body = await readBody(request);
    return askTutor(request, user, lesson, body.question);
  });
}
