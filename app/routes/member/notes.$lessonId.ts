import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readLessonNote, writeLessonNote } from '~/services/lesson-notes.server';
import { lessonOfMember } from '~/services/member-lessons.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';

const notFound = () => Response.json({ success: false, message: 'Not Found' }, { status: 404 });
const noteJson = (note: Awaited<ReturnType<typeof readLessonNote>>) =>
  Response.json(
    { success: true, body: note.body, revision: note.revision, updatedAt: note.updatedAt },
    { headers: { 'Cache-Control': 'no-store' } },
  );

/** GET: the member's note on this lesson (empty, revision 0, when none). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const lesson = await lessonOfMember(params.lessonId, user.id);
  if (!lesson) return notFound();
  return noteJson(await readLessonNote(user.id, lesson.id));
}

/** POST { body }: replaces the note (the last write wins) and answers the stored revision. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('notes', async () => {
    if (request.method !== 'POST')
      return Response.json({ success: false, message: 'Method Not Allowed' }, { status: 405 });
    const user = await requireApiUser(request, context);
    const lesson = await lessonOfMember(params.lessonId, user.id);
    if (!lesson) return notFound();
    const saved = await writeLessonNote(user.id, lesson, (await readBody(request)).body);
    return saved.ok ? noteJson(saved.value) : failureJson(saved);
  });
}
