import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { lessonVersions } from '../../db/schema';
import { MAX_LESSON_VERSIONS, type LessonVersionKind } from '~/domain/lesson-editing';
import { markDeckLessonChanged } from './flashcards.server';
import { database, first, tables, transaction } from '~/utils/database.server';

/**
 * The history of a lesson's text (ADR 0059). Every write that replaces a written lesson's text
 * (an edit, a regeneration, a restore) goes through `replaceLessonText` here, in one transaction
 * with the version it adds (/api/update's other text for a written lesson too); the text first
 * written is kept lazily, the first time it is replaced, so generation need not know about versions.
 */
export type LessonVersion = typeof lessonVersions.$inferSelect;

export async function listLessonVersions(lessonId: number): Promise<LessonVersion[]> {
  const { lessonVersions } = tables;
  return database()
    .select()
    .from(lessonVersions)
    .where(eq(lessonVersions.lessonId, lessonId))
    .orderBy(desc(lessonVersions.id));
}

export async function getLessonVersion(
  lessonId: number,
  versionId: number,
): Promise<LessonVersion | undefined> {
  const { lessonVersions } = tables;
  return first(
    database()
      .select()
      .from(lessonVersions)
      .where(and(eq(lessonVersions.lessonId, lessonId), eq(lessonVersions.id, versionId))),
  );
}

/** The Markdown the lesson's current text was typed in, when an edit of it is kept. */
export async function currentLessonMarkdown(lessonId: number, theory: string) {
  const { lessonVersions } = tables;
  const latest = await first(
    database()
      .select({ theory: lessonVersions.theory, markdown: lessonVersions.markdown })
      .from(lessonVersions)
      .where(and(eq(lessonVersions.lessonId, lessonId), isNotNull(lessonVersions.markdown)))
      .orderBy(desc(lessonVersions.id))
      .limit(1),
  );
  return latest?.theory === theory ? latest.markdown : null;
}

export interface NewLessonText {
  kind: Exclude<LessonVersionKind, 'generated'>;
  title?: string;
  theory: string;
  markdown?: string | null;
  instruction?: string;
  restoredFrom?: number;
}

export type ReplaceOutcome = 'replaced' | 'missing' | 'busy';

/**
 * Replaces a written lesson's text (and title) and keeps the new version, in the caller's
 * transaction or its own; the lesson's flashcards, if written, are marked as written from an
 * older text (ADR 0061). `allowRunning` is for the regeneration's own job: every other writer
 * is refused ('busy') while the lesson is not written yet or a regeneration is running, checked
 * here at write time, so a running job's text and an edit never overwrite each other unseen.
 */
export async function replaceLessonText(
  lessonId: number,
  text: NewLessonText,
  { allowRunning = false } = {},
): Promise<ReplaceOutcome> {
  return transaction(async () => {
    const { lessons, lessonRegenerations, lessonVersions } = tables;
    const db = database();
    const lesson = await first(
      db
        .select({
          title: lessons.title,
          theory: lessons.theory,
          state: lessons.state,
          generatedAt: lessons.generatedAt,
          regeneration: lessonRegenerations.state,
        })
        .from(lessons)
        .leftJoin(lessonRegenerations, eq(lessonRegenerations.lessonId, lessons.id))
        .where(eq(lessons.id, lessonId)),
    );
    if (!lesson) return 'missing';
    if (lesson.state !== 'done' || lesson.theory === null) return 'busy';
    if (lesson.regeneration === 'running' && !allowRunning) return 'busy';
    const kept = await first(
      db
        .select({ id: lessonVersions.id })
        .from(lessonVersions)
        .where(eq(lessonVersions.lessonId, lessonId))
        .limit(1),
    );
    if (!kept)
      await db.insert(lessonVersions).values({
        lessonId,
        kind: 'generated',
        title: lesson.title,
        theory: lesson.theory,
        createdAt: lesson.generatedAt ?? new Date(),
      });
    const title = text.title ?? lesson.title;
    await db
      .update(lessons)
      .set({ title, theory: text.theory, generatedAt: new Date() })
      .where(eq(lessons.id, lessonId));
    if (text.theory !== lesson.theory) await markDeckLessonChanged(lessonId);
    await db.insert(lessonVersions).values({
      lessonId,
      kind: text.kind,
      instruction: text.instruction ?? '',
      restoredFrom: text.restoredFrom ?? null,
      title,
      theory: text.theory,
      markdown: text.markdown ?? null,
      createdAt: new Date(),
    });
    await pruneLessonVersions(lessonId);
    return 'replaced';
  });
}

/** Keeps the newest MAX_LESSON_VERSIONS of a lesson. */
async function pruneLessonVersions(lessonId: number) {
  const { lessonVersions } = tables;
  const db = database();
  const old = await db
    .select({ id: lessonVersions.id })
    .from(lessonVersions)
    .where(eq(lessonVersions.lessonId, lessonId))
    .orderBy(desc(lessonVersions.id))
    .limit(1000)
    .offset(MAX_LESSON_VERSIONS);
  if (old.length > 0)
    await db.delete(lessonVersions).where(
      inArray(
        lessonVersions.id,
        old.map((row) => row.id),
      ),
    );
}
