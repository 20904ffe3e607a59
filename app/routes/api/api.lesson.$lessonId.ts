import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { API, apiJson } from '~/api/contract.server';
import { MAX_COURSE_BODY_BYTES } from '~/domain/content-limits';
import type { RouteBodyLimit } from '~/load-context';
import { editLesson, lessonText } from '~/services/lesson-editing.server';
import { lessonOfMember } from '~/services/member-lessons.server';
import { requireApiUser } from '~/utils/auth.server';
import { apiError, failureJson, guardApi } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';

/** A lesson's Markdown, JSON-escaped, as /api/update carries lesson texts. */
export const bodyLimit: RouteBodyLimit = { bytes: MAX_COURSE_BODY_BYTES };

const notFound = () => apiError(404, 'Not Found');

/** GET: the lesson's title and text (Markdown and HTML). Another member's lesson: 404. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return guardApi('lesson.loader', async () => {
    const user = await requireApiUser(request, context);
    const lesson = await lessonOfMember(params.lessonId, user.id);
    if (!lesson) return notFound();
    return apiJson(API.lesson, 200, { success: true, lesson: await lessonText(lesson) });
  });
}

/** POST { title, markdown }: the author's edit, kept as a new version (ADR 0059). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('lesson.action', async () => {
    const user = await requireApiUser(request, context);
    const lesson = await lessonOfMember(params.lessonId, user.id);
    if (!lesson) return notFound();
    const saved = await editLesson(user.id, lesson, await readBody(request));
    if (!saved.ok) return failureJson(saved);
    return apiJson(API.editLesson, 200, { success: true, lesson: saved.value });
  });
}
