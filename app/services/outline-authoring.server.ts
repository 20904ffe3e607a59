import { z } from 'zod';
import {
  MAX_REWRITE_INSTRUCTION_CHARS,
  normalizeOutline,
  OUTLINE_REWRITING_MESSAGE,
  OUTLINE_USED_MESSAGE,
  outlineEditRefusal,
  sameOutline,
} from '~/domain/outline-edit';
import { AI_ALLOWANCE_MESSAGE, PAID_ONLY_MESSAGE } from '~/domain/plans';
import { fail, ok, type Failure, type Result } from '~/domain/result';
import {
  getOutlineForUser,
  outlineStatus,
  requestOutlineRewrite,
  saveOutlineEdit,
  stopOutlineRewrite,
  type Outline,
  type OutlineStatus,
  type OutlineTopics,
} from '~/models/outlines.server';
import type { User } from '~/models/users.server';
import { aiAllowance, giveBackAiAllowance } from '~/services/ai-allowance.server';
import { dropOutlineJob, ensureOutlineJob } from '~/services/course-generation.server';
import { publishChange } from '~/utils/changes.server';
import { cleanText } from '~/utils/validation.server';

/**
 * Shaping an outline before Generate Course (ADR 0032): the member's edits, saved as they make
 * them, and "Rewrite the outline" with a one-line instruction. The /topics page and
 * `POST /api/outline/:id` both come here, so the plan's limits hold whichever is used.
 */

export const rewriteInstruction = z
  .string({ error: 'Please say how to rewrite the outline' })
  .trim()
  .min(1, 'Please say how to rewrite the outline')
  .max(
    MAX_REWRITE_INSTRUCTION_CHARS,
    `Please keep the instruction under ${MAX_REWRITE_INSTRUCTION_CHARS} characters`,
  )
  .pipe(cleanText({ label: 'The instruction', singleLine: true }));

/** Why a written outline cannot be changed now, if it cannot. */
function changeRefusal(outline: Outline): Failure | null {
  if (outline.courseId) return fail(OUTLINE_USED_MESSAGE, 409);
  if (outline.rewriteInstruction !== null) return fail(OUTLINE_REWRITING_MESSAGE, 409);
  if (!outline.result) return fail('The outline is not ready yet', 409);
  return null;
}

/**
 * Stores the member's edited outline when it passes the plan's rule (topics, lessons per topic,
 * titles); an unchanged outline is not written again. Answers the outline's status.
 */
export async function saveOutlineOf(
  user: User,
  outlineId: string,
  edited: OutlineTopics,
): Promise<Result<OutlineStatus>> {
  const outline = await getOutlineForUser(outlineId, user.id);
  if (!outline) return fail('Not Found', 404);
  const refused = changeRefusal(outline);
  if (refused) return refused;
  const topics = normalizeOutline(edited);
  const message = outlineEditRefusal(topics, user.plan);
  // Beyond the plan is a 403, as on /create; anything else about the outline is a 400.
  if (message) return fail(message, message === PAID_ONLY_MESSAGE ? 403 : 400);
  if (!sameOutline(topics, outline.result!)) {
    if (!(await saveOutlineEdit(outline.id, topics))) return fail(OUTLINE_REWRITING_MESSAGE, 409);
    publishChange(`outline:${outline.id}`);
  }
  return ok(await outlineStatus((await getOutlineForUser(outlineId, user.id))!));
}

/**
 * "Rewrite the outline": one call of the member's AI allowance, then the outline's job writes it
 * again with the instruction; the outline as it stands stays (and shows) until then.
 */
export async function rewriteOutlineOf(
  user: User,
  outlineId: string,
  instruction: string,
): Promise<Result<OutlineStatus>> {
  const outline = await getOutlineForUser(outlineId, user.id);
  if (!outline) return fail('Not Found', 404);
  const refused = changeRefusal(outline);
  if (refused) return refused;
  if (!(await aiAllowance(user)).allowed) return fail(AI_ALLOWANCE_MESSAGE, 429);
  if ((await requestOutlineRewrite(outline.id, instruction)) === null) {
    // Generated or rewritten from elsewhere meanwhile: nothing was asked of the AI.
    await giveBackAiAllowance(user);
    return fail(OUTLINE_REWRITING_MESSAGE, 409);
  }
  const asked = (await getOutlineForUser(outlineId, user.id))!;
  await ensureOutlineJob(asked);
  publishChange(`outline:${outline.id}`);
  return ok(await outlineStatus(asked));
}

/** The member stops a rewrite: the outline stays as it was, and its job is dropped. */
export async function stopRewriteOf(user: User, outlineId: string): Promise<Result<OutlineStatus>> {
  const outline = await getOutlineForUser(outlineId, user.id);
  if (!outline) return fail('Not Found', 404);
  if (!(await stopOutlineRewrite(outline.id))) return fail('No rewrite is under way', 409);
  await dropOutlineJob(outline.id, outline.rewriteRound);
  publishChange(`outline:${outline.id}`);
  return ok(await outlineStatus((await getOutlineForUser(outlineId, user.id))!));
}
