import { z } from 'zod';
import {
  INSTRUCTION_TOO_LONG_MESSAGE,
  LESSON_NOT_WRITTEN_MESSAGE,
  MAX_INSTRUCTION_CHARS,
  NOTHING_TO_RESTORE_MESSAGE,
  REGENERATE_ALLOWANCE_MESSAGE,
  REGENERATION_RUNNING_MESSAGE,
  type RegenerationStatus,
} from '~/domain/notes';
import { fail, ok, type Result } from '~/domain/result';
import type { Lesson } from '~/models/lessons.server';
import {
  getRegeneration,
  restorePreviousLesson,
  startRegeneration,
} from '~/models/lesson-regenerations.server';
import type { User } from '~/models/users.server';
import { ensureRegenerationJobs } from '~/queues/lesson-regeneration.server';
import { aiAllowance, giveBackAiAllowance } from '~/services/ai-allowance.server';
import { publishChange } from '~/utils/changes.server';
import { newId } from '~/utils/ids.server';
import { log } from '~/utils/logger.server';
import { cleanText, parseWith } from '~/utils/validation.server';

/**
 * "Regenerate" a lesson (ADR 0020): the member's optional instruction, one vendor call of the
 * hourly AI allowance, a job that writes the new text; the old text stays until then and can be
 * put back once.
 */

export async function regenerationStatus(lessonId: number): Promise<RegenerationStatus> {
  const row = await getRegeneration(lessonId);
  if (!row)
    return {
      lessonId,
      state: 'idle',
      instruction: '',
      attempts: 0,
      canRestore: false,
      version: 'idle',
    };
  const canRestore = row.state === 'done' && row.previousTheory !== null;
  return {
    lessonId,
    state: row.state,
    instruction: row.instruction,
    attempts: row.attempts,
    canRestore,
    version: [row.token, row.state, row.attempts, canRestore ? 'r' : '-'].join(':'),
  };
}

const requestSchema = z.object({
  intent: z.enum(['regenerate', 'restore'], {
    error: 'Choose what to do: regenerate or restore.',
  }),
  instruction: z
    .string({ error: 'The instruction must be text.' })
    .trim()
    .max(MAX_INSTRUCTION_CHARS, INSTRUCTION_TOO_LONG_MESSAGE)
    .pipe(cleanText({ label: 'The instruction', singleLine: true }))
    .optional()
    .default(''),
});

/** Regenerate or restore, as the body asks. */
export async function changeLessonVersion(
  user: User,
  lesson: Lesson,
  body: unknown,
): Promise<Result<RegenerationStatus>> {
  const parsed = parseWith(requestSchema, body);
  if (!parsed.ok) return parsed;
  return parsed.value.intent === 'restore'
    ? restoreLesson(lesson)
    : regenerateLesson(user, lesson, parsed.value.instruction);
}

async function regenerateLesson(
  user: User,
  lesson: Lesson,
  instruction: string,
): Promise<Result<RegenerationStatus>> {
  if (!lesson.theory) return fail(LESSON_NOT_WRITTEN_MESSAGE, 409);
  if ((await getRegeneration(lesson.id))?.state === 'running')
    return fail(REGENERATION_RUNNING_MESSAGE, 409);
  const allowance = await aiAllowance(user);
  if (!allowance.allowed)
    return fail(REGENERATE_ALLOWANCE_MESSAGE, 429, allowance.retryAfterSeconds);
  const token = newId();
  const started = await startRegeneration({
    lessonId: lesson.id,
    courseId: lesson.courseId,
    userId: user.id,
    token,
    instruction,
  });
  if (!started) {
    // Another request for this lesson won the race: it is the one that pays.
    await giveBackAiAllowance(user);
    return fail(REGENERATION_RUNNING_MESSAGE, 409);
  }
  try {
    await ensureRegenerationJobs([{ lessonId: lesson.id, courseId: lesson.courseId, token }]);
  } catch (error) {
    // The row is owed work: the worker's sweep enqueues it when Redis is back.
    log.warn('lesson.regenerate_enqueue_failed', { lessonId: lesson.id, error });
  }
  publishChange(`course:${lesson.courseId}`);
  return ok(await regenerationStatus(lesson.id));
}

async function restoreLesson(lesson: Lesson): Promise<Result<RegenerationStatus>> {
  const row = await getRegeneration(lesson.id);
  if (row?.state === 'running') return fail(REGENERATION_RUNNING_MESSAGE, 409);
  if (!(await restorePreviousLesson(lesson.id))) return fail(NOTHING_TO_RESTORE_MESSAGE, 409);
  publishChange(`course:${lesson.courseId}`);
  return ok(await regenerationStatus(lesson.id));
}
