import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { outlineFromSpec, outlineToSpec } from '~/domain/outline';
import { getOutlineForUser, outlineStatus, type OutlineStatus } from '~/models/outlines.server';
import { startCourse } from '~/services/course-generation.server';
import { rewriteOutlineOf, saveOutlineOf } from '~/services/outline-authoring.server';
import { requireApiUser } from '~/utils/auth.server';
import { apiError, failureJson, guardApi } from '~/utils/responses.server';
import { requireValidBody } from '~/utils/validation.server';
import { API, apiJson } from '~/api/contract.server';
import { idempotent } from '~/utils/idempotency.server';

/**
 * The outline of /topics for API clients (ADR 0032). GET answers it as the page shows it;
 * POST `{ topics?, instruction?, generate? }` does what the page does, in that order: saves
 * the edited outline (`topics`: [{ title, subtopics: [{ title }] }], held to the plan's limits),
 * asks for a rewrite with a one-line instruction (one call of the AI allowance), or starts the
 * course from the outline as it stands (`generate: true`, answering `courseId`). Another
 * member's outline: 404. The API calls lessons `subtopics` (the spec's word): mapped here, both ways.
 */
const notFound = () => apiError(404, 'Not Found');

const inSpecWords = (status: OutlineStatus) => ({
  ...status,
  topics: status.topics && outlineToSpec(status.topics),
});

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return guardApi('outline.loader', async () => {
    const user = await requireApiUser(request, context);
    const outline = await getOutlineForUser(params.outlineId ?? '', user.id);
    if (!outline) return notFound();
    return apiJson(API.outline, 200, {
      success: true,
      outline: inSpecWords(await outlineStatus(outline)),
    });
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('outline.action', async () => {
    if (request.method !== 'POST')
      return apiError(405, 'Method Not Allowed', { headers: { Allow: 'GET, HEAD, POST' } });
    const user = await requireApiUser(request, context);
    return idempotent(request, user.id, async () => {
      const outlineId = params.outlineId ?? '';
      if (!(await getOutlineForUser(outlineId, user.id))) return notFound();
      const body = await requireValidBody(request, API.editOutline.body);
      if (body.topics) {
        const saved = await saveOutlineOf(user, outlineId, outlineFromSpec(body.topics));
        if (!saved.ok) return failureJson(saved);
      }
      if (body.instruction) {
        const asked = await rewriteOutlineOf(user, outlineId, body.instruction);
        if (!asked.ok) return failureJson(asked);
      }
      let courseId: string | undefined;
      if (body.generate) {
        const started = await startCourse(user, outlineId);
        if (!started.ok) return failureJson(started);
        courseId = started.value;
      }
      const outline = await outlineStatus((await getOutlineForUser(outlineId, user.id))!);
      return apiJson(API.editOutline, 200, {
        success: true,
        outline: inSpecWords(outline),
        ...(courseId ? { courseId } : {}),
      });
    });
  });
}
