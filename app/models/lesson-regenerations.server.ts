import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { lessonRegenerations } from '../../db/schema';
import { database, first, tables, transaction } from '~/utils/database.server';
import { replaceLessonText } from './lesson-versions.server';

/**
 * Re-writes of a lesson the member asked for (ADR 0020). The lesson row keeps its text until the
 * new one is written; the one write that swaps them also keeps the old text here, so exactly one
 * previous version exists, and restoring it uses it up.
 */
export type LessonRegeneration = typeof lessonRegenerations.$inferSelect;

export async function getRegeneration(lessonId: number): Promise<LessonRegeneration | undefined> {
  const { lessonRegenerations } = tables;
  return first(
    database().select().from(lessonRegenerations).where(eq(lessonRegenerations.lessonId, lessonId)),
  );
}

/**
 * Records a new request, unless one is running for the lesson: returns false then, so two
 * requests at once start one job. A previous version kept from an earlier re-write stays
 * until this one replaces it.
 */
export async function startRegeneration(input: {
  lessonId: number;
  courseId: string;
  userId: string;
  token: string;
  instruction: string;
}): Promise<boolean> {
  const { lessonRegenerations } = tables;
  const fresh = {
    token: input.token,
    instruction: input.instruction,
    state: 'running' as const,
    attempts: 0,
    lastError: null,
    requestedAt: new Date(),
    finishedAt: null,
  };
  const started = await database()
    .insert(lessonRegenerations)
    .values({ ...input, ...fresh })
    .onConflictDoUpdate({
      target: lessonRegenerations.lessonId,
      set: fresh,
      setWhere: ne(lessonRegenerations.state, 'running'),
    })
    .returning({ lessonId: lessonRegenerations.lessonId });
  return started.length === 1;
}

/** What a regeneration job needs, or undefined when its request was replaced or is finished. */
export async function getRunningRegeneration(lessonId: number, token: string) {
  const { lessonRegenerations, lessons } = tables;
  return first(
    database()
      .select({
        regeneration: lessonRegenerations,
        lesson: { title: lessons.title, theory: lessons.theory },
      })
      .from(lessonRegenerations)
      .innerJoin(lessons, eq(lessons.id, lessonRegenerations.lessonId))
      .where(isRunningRequest(lessonId, token)),
  );
}

/** The lesson's request `token` is the one running: a replaced or finished one never writes. */
function isRunningRequest(lessonId: number, token: string) {
  const { lessonRegenerations } = tables;
  return and(
    eq(lessonRegenerations.lessonId, lessonId),
    eq(lessonRegenerations.token, token),
    eq(lessonRegenerations.state, 'running'),
  );
}

/**
 * The new text replaces the lesson's and the old one becomes the previous version, in one
 * transaction: a reader sees the old lesson or the new one, never neither. Only the request's
 * own job writes, once; returns whether it did.
 */
export async function storeRegeneratedLesson(
  lessonId: number,
  token: string,
  theory: string,
): Promise<boolean> {
  return transaction(async (tx) => {
    const { lessonRegenerations, lessons } = tables;
    const current = await first(
      tx
        .select({ theory: lessons.theory, instruction: lessonRegenerations.instruction })
        .from(lessons)
        .innerJoin(lessonRegenerations, eq(lessonRegenerations.lessonId, lessons.id))
        .where(isRunningRequest(lessonId, token)),
    );
    if (!current) return false;
    // Kept in the lesson's history too (ADR 0059): an edit made before this request stays there.
    const replaced = await replaceLessonText(
      lessonId,
      { kind: 'regenerated', theory, instruction: current.instruction },
      { allowRunning: true },
    );
    if (replaced !== 'replaced') return false;
    await tx
      .update(lessonRegenerations)
      .set({
        state: 'done',
        previousTheory: current.theory,
        lastError: null,
        finishedAt: new Date(),
      })
      .where(eq(lessonRegenerations.lessonId, lessonId));
    return true;
  });
}

export async function recordRegenerationFailure(
  lessonId: number,
  token: string,
  failures: number,
  message: string,
) {
  const { lessonRegenerations } = tables;
  await database()
    .update(lessonRegenerations)
    .set({ attempts: failures, lastError: message.slice(0, 500) })
    .where(and(eq(lessonRegenerations.lessonId, lessonId), eq(lessonRegenerations.token, token)));
}

/** Puts the previous version back and forgets it (restore once). Returns whether it did. */
export async function restorePreviousLesson(lessonId: number): Promise<boolean> {
  return transaction(async (tx) => {
    const { lessonRegenerations } = tables;
    const row = await first(
      tx
        .select({ previous: lessonRegenerations.previousTheory })
        .from(lessonRegenerations)
        .where(
          and(
            eq(lessonRegenerations.lessonId, lessonId),
            eq(lessonRegenerations.state, 'done'),
            isNotNull(lessonRegenerations.previousTheory),
          ),
        ),
    );
    if (row?.previous == null) return false;
    if (
      (await replaceLessonText(lessonId, { kind: 'restored', theory: row.previous })) !== 'replaced'
    )
      return false;
    await tx
      .update(lessonRegenerations)
      .set({ previousTheory: null, finishedAt: new Date() })
      .where(eq(lessonRegenerations.lessonId, lessonId));
    return true;
  });
}

/** Requests still owed a new text: the sweeper keeps a job for each. */
export async function listRunningRegenerations(): Promise<
  {
    lessonId: number;
    courseId: string;
    token: string;
  }[]
> {
  const { lessonRegenerations } = tables;
  return database()
    .select({
      lessonId: lessonRegenerations.lessonId,
      courseId: lessonRegenerations.courseId,
      token: lessonRegenerations.token,
    })
    .from(lessonRegenerations)
    .where(eq(lessonRegenerations.state, 'running'));
}
