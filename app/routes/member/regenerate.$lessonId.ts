import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { changeLessonVersion, regenerationStatus } from '~/services/lesson-regeneration.server';
import { lessonOfMember } from '~/services/member-lessons.server';
import { requireApiUser } from '~/utils/auth.server';
import { readWhenChanged, statusJson } from '~/utils/long-poll.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';

const notFound = () => statusJson({ success: false, message: 'Not Found' }, 404);

/** GET: the lesson's regeneration state; with `?known=&wait=` held until it changes (long-poll). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const lesson = await lessonOfMember(params.lessonId, user.id);
  if (!lesson) return notFound();
  const status = await readWhenChanged(request, () => regenerationStatus(lesson.id), {
    key: `course:${lesson.courseId}`,
    memberId: user.id,
  });
  return statusJson(status);
}

/** POST { intent: regenerate | restore, instruction? }: starts a re-write or puts the old text back. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('regenerate', async () => {
    if (request.method !== 'POST')
      return Response.json({ success: false, message: 'Method Not Allowed' }, { status: 405 });
    const user = await requireApiUser(request, context);
    const lesson = await lessonOfMember(params.lessonId, user.id);
    if (!lesson) return notFound();
    const result = await changeLessonVersion(user, lesson, await readBody(request));
    return result.ok
      ? Response.json(
          { success: true, ...result.value },
          { status: result.value.state === 'running' ? 202 : 200 },
        )
      : failureJson(result);
  });
}
