import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { API, apiJson } from '~/api/contract.server';
import { lessonHistory, restoreLessonVersion } from '~/services/lesson-editing.server';
import { lessonOfMember } from '~/services/member-lessons.server';
import { requireApiUser } from '~/utils/auth.server';
import { apiError, failureJson, guardApi } from '~/utils/responses.server';
import { requireValidBody } from '~/utils/validation.server';

const notFound = () => apiError(404, 'Not Found');

/** GET: the lesson's kept versions, newest first (ADR 0059). Another member's lesson: 404. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return guardApi('lessonVersions.loader', async () => {
    const user = await requireApiUser(request, context);
    const lesson = await lessonOfMember(params.lessonId, user.id);
    if (!lesson) return notFound();
    return apiJson(API.lessonVersions, 200, {
      success: true,
      versions: await lessonHistory(lesson),
    });
  });
}

/** POST { versionId }: that version becomes the lesson's text again, as a new version. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('lessonVersions.action', async () => {
    const user = await requireApiUser(request, context);
    const lesson = await lessonOfMember(params.lessonId, user.id);
    if (!lesson) return notFound();
    const body = await requireValidBody(request, API.restoreLessonVersion.body);
    const restored = await restoreLessonVersion(lesson, body.versionId);
    if (!restored.ok) return failureJson(restored);
    return apiJson(API.restoreLessonVersion, 200, { success: true, lesson: restored.value });
  });
}
