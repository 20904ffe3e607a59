import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { revokeCourseShare, shareCourse } from '~/services/course-sharing.server';
import { requireUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { parseWith, readBody } from '~/utils/validation.server';

const shareSchema = z.object({ intent: z.enum(['share', 'revoke']) });

/**
 * POST { intent: share | revoke } from the owner's course view. The page's fetcher gets JSON;
 * a plain form (no JavaScript) is sent back to the course, which shows the new state.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('course-share', async () => {
    const user = await requireUser(request, context);
    const parsed = parseWith(shareSchema, await readBody(request));
    if (!parsed.ok) return failureJson(parsed);
    const courseId = params.courseId ?? '';
    const result =
      parsed.value.intent === 'share'
        ? await shareCourse(user, courseId)
        : await revokeCourseShare(user, courseId);
    if (!result.ok) return failureJson(result);
    if (request.headers.get('Accept')?.includes('text/html'))
      return redirect(`/course/${courseId}`, 303);
    return Response.json({ success: true, url: result.value?.url ?? null });
  });
}
