import { and, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type {
  outlines,
  CourseType,
  GenerationState,
  MaterialKind,
  MaterialSection,
} from '../../db/schema';
import { DEFAULT_LANGUAGE } from '~/domain/languages';
import { database, first, preparedQuery, tables, transaction } from '~/utils/database.server';
import { newId } from '~/utils/ids.server';

export type Outline = typeof outlines.$inferSelect;
export type OutlineTopics = NonNullable<Outline['result']>;

/**
 * Work the AI owes an outline: it is not written yet, or the member asked for a rewrite
 * (ADR 0032); a cancelled one is owed nothing. Every write a try makes is guarded by it.
 */
const owed = () => {
  const { outlines } = tables;
  return and(
    ne(outlines.state, 'cancelled'),
    or(isNull(outlines.result), isNotNull(outlines.rewriteInstruction)),
  );
};

/**
 * The insert of /create, built and prepared once per database: drizzle otherwise rebuilds
 * and re-prepares it on each call, about a millisecond on the request thread, which a burst of
 * simultaneous /create multiplies for every page the same process serves meanwhile.
 */
const createOutlineStatement = preparedQuery((db, { outlines }) =>
  db
    .insert(outlines)
    .values({
      id: sql.placeholder('id'),
      userId: sql.placeholder('userId'),
      mainTopic: sql.placeholder('mainTopic'),
      subtopics: sql.placeholder('subtopics'),
      topicCount: sql.placeholder('topicCount'),
      courseType: sql.placeholder('courseType'),
      language: sql.placeholder('language'),
    })
    .returning()
    .prepare(),
);

/** The member's material, read and split into sections, stored with the outline it is for. */
export interface NewMaterial {
  kind: MaterialKind;
  name: string;
  byteSize: number;
  pageCount: number | null;
  charCount: number;
  /** The sections (MaterialSection[]) as JSON text, made off the request thread. */
  sectionsJson: string;
}

export async function createOutline(input: {
  userId: string;
  mainTopic: string;
  subtopics: string[];
  topicCount: number;
  courseType: CourseType;
  language?: string;
  /** Stored in the same transaction: an outline and its material exist together or not at all. */
  material?: NewMaterial;
}): Promise<Outline> {
  const { material, ...request } = input;
  const values = { id: newId(), ...request, language: request.language ?? DEFAULT_LANGUAGE };
  if (material)
    return transaction(async (tx) => {
      const { outlines, sourceDocuments } = tables;
      const [outline] = await tx.insert(outlines).values(values).returning();
      const { sectionsJson, ...document } = material;
      await tx.insert(sourceDocuments).values({
        id: newId(),
        userId: outline!.userId,
        outlineId: outline!.id,
        ...document,
        // Stored as the thread wrote it: the request thread never parses or serializes it.
        // (PostgreSQL reads the text parameter as the jsonb of the column it is inserted into.)
        sections: sql`${sectionsJson}`,
      });
      return outline!;
    });
  const [outline] = await createOutlineStatement().execute(values);
  return outline!;
}

export async function getOutline(id: string): Promise<Outline | undefined> {
  const { outlines } = tables;
  return first(database().select().from(outlines).where(eq(outlines.id, id)));
}

/** Another member's outline is as absent as one that never existed. */
export async function getOutlineForUser(id: string, userId: string): Promise<Outline | undefined> {
  const { outlines } = tables;
  return first(
    database()
      .select()
      .from(outlines)
      .where(and(eq(outlines.id, id), eq(outlines.userId, userId))),
  );
}

/** A try starts: running the first time, retrying after a failure. */
export async function markOutlineRunning(id: string, failuresSoFar: number) {
  const { outlines } = tables;
  await database()
    .update(outlines)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'running', updatedAt: new Date() })
    .where(and(eq(outlines.id, id), owed()));
}

/** A try put off by the AI rate limit (ADR 0024): waiting again, as before it started. */
export async function markOutlineWaiting(id: string, failuresSoFar: number) {
  const { outlines } = tables;
  await database()
    .update(outlines)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'queued', updatedAt: new Date() })
    .where(and(eq(outlines.id, id), owed()));
}

/** Stores a validated outline once; a second writer changes nothing. Returns whether it stored. */
export async function storeOutlineResult(id: string, topics: OutlineTopics): Promise<boolean> {
  const { outlines } = tables;
  const stored = await database()
    .update(outlines)
    .set({
      result: topics,
      state: 'done',
      lastError: null,
      failureKind: null,
      updatedAt: new Date(),
    })
    .where(and(eq(outlines.id, id), isNull(outlines.result), ne(outlines.state, 'cancelled')))
    .returning({ id: outlines.id });
  return stored.length === 1;
}

export async function recordOutlineFailure(
  id: string,
  failures: number,
  message: string,
  kind: NonNullable<Outline['failureKind']>,
) {
  const { outlines } = tables;
  await database()
    .update(outlines)
    .set({
      state: 'retrying',
      attempts: failures,
      lastError: message.slice(0, 500),
      failureKind: kind,
      updatedAt: new Date(),
    })
    .where(and(eq(outlines.id, id), owed()));
}

/** The member gives up on an outline not written yet: no more tries. False if it was written. */
export async function cancelOutline(id: string): Promise<boolean> {
  const { outlines } = tables;
  const cancelled = await database()
    .update(outlines)
    .set({ state: 'cancelled', updatedAt: new Date() })
    .where(and(eq(outlines.id, id), isNull(outlines.result)))
    .returning({ id: outlines.id });
  return cancelled.length === 1;
}

/** The member changes the title of an outline not written yet: it starts again from try one. */
export async function retitleOutline(id: string, mainTopic: string): Promise<boolean> {
  const { outlines } = tables;
  const retitled = await database()
    .update(outlines)
    .set({
      mainTopic,
      state: 'queued',
      attempts: 0,
      lastError: null,
      failureKind: null,
      updatedAt: new Date(),
    })
    .where(and(eq(outlines.id, id), isNull(outlines.result)))
    .returning({ id: outlines.id });
  return retitled.length === 1;
}

/**
 * Links the outline to the course made from it, once, and gives the course the outline's
 * material (so deleting the course deletes it); false if it already has a course or is being
 * rewritten.
 */
export async function claimOutline(id: string, courseId: string): Promise<boolean> {
  return transaction(async (tx) => {
    const { outlines, sourceDocuments } = tables;
    const claimed =
      (
        await tx
          .update(outlines)
          .set({ courseId, updatedAt: new Date() })
          .where(
            and(
              eq(outlines.id, id),
              isNull(outlines.courseId),
              isNull(outlines.rewriteInstruction),
            ),
          )
          .returning({ id: outlines.id })
      ).length === 1;
    if (claimed)
      await tx.update(sourceDocuments).set({ courseId }).where(eq(sourceDocuments.outlineId, id));
    return claimed;
  });
}

/** Stores the member's edit of a written outline; false once it has a course or is being rewritten. */
export async function saveOutlineEdit(id: string, topics: OutlineTopics): Promise<boolean> {
  const { outlines } = tables;
  const saved = await database()
    .update(outlines)
    .set({ result: topics, revision: sql`${outlines.revision} + 1`, updatedAt: new Date() })
    .where(
      and(
        eq(outlines.id, id),
        isNotNull(outlines.result),
        isNull(outlines.courseId),
        isNull(outlines.rewriteInstruction),
      ),
    )
    .returning({ id: outlines.id });
  return saved.length === 1;
}

/**
 * "Rewrite the outline": a written outline without a course is owed again, with the member's
 * instruction; the written one stays until the rewrite replaces it. Returns the rewrite's round
 * (its job's name), or null when the outline cannot be rewritten now.
 */
export async function requestOutlineRewrite(
  id: string,
  instruction: string,
): Promise<number | null> {
  const { outlines } = tables;
  const [row] = await database()
    .update(outlines)
    .set({
      rewriteInstruction: instruction,
      rewriteRound: sql`${outlines.rewriteRound} + 1`,
      state: 'queued',
      attempts: 0,
      lastError: null,
      failureKind: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(outlines.id, id),
        isNotNull(outlines.result),
        isNull(outlines.courseId),
        isNull(outlines.rewriteInstruction),
      ),
    )
    .returning({ round: outlines.rewriteRound });
  return row?.round ?? null;
}

/** The member stops a rewrite: the outline stays as it was. False when none was under way. */
export async function stopOutlineRewrite(id: string): Promise<boolean> {
  const { outlines } = tables;
  const stopped = await database()
    .update(outlines)
    .set({
      rewriteInstruction: null,
      state: 'done',
      attempts: 0,
      lastError: null,
      failureKind: null,
      updatedAt: new Date(),
    })
    .where(and(eq(outlines.id, id), isNotNull(outlines.rewriteInstruction)))
    .returning({ id: outlines.id });
  return stopped.length === 1;
}

/** The rewrite of `round` replaces the outline, once; false if it was stopped or superseded. */
export async function storeRewrittenOutline(
  id: string,
  round: number,
  topics: OutlineTopics,
): Promise<boolean> {
  const { outlines } = tables;
  const stored = await database()
    .update(outlines)
    .set({
      result: topics,
      rewriteInstruction: null,
      revision: sql`${outlines.revision} + 1`,
      state: 'done',
      attempts: 0,
      lastError: null,
      failureKind: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(outlines.id, id),
        eq(outlines.rewriteRound, round),
        isNotNull(outlines.rewriteInstruction),
        isNull(outlines.courseId),
      ),
    )
    .returning({ id: outlines.id });
  return stored.length === 1;
}

/** The member's material an outline is written from (ADR 0032), as the jobs read it. */
export interface OutlineMaterial {
  id: string;
  name: string;
  kind: MaterialKind;
  pageCount: number | null;
  sections: MaterialSection[];
}

export async function materialOfOutline(outlineId: string): Promise<OutlineMaterial | undefined> {
  const { sourceDocuments } = tables;
  return first(
    database()
      .select({
        id: sourceDocuments.id,
        name: sourceDocuments.name,
        kind: sourceDocuments.kind,
        pageCount: sourceDocuments.pageCount,
        sections: sourceDocuments.sections,
      })
      .from(sourceDocuments)
      .where(eq(sourceDocuments.outlineId, outlineId)),
  );
}

/** What the outline's page says of its material: no sections, only their count. */
interface MaterialSummary {
  id: string;
  name: string;
  kind: MaterialKind;
  pageCount: number | null;
  charCount: number;
}

async function materialSummary(outlineId: string): Promise<MaterialSummary | null> {
  const { sourceDocuments } = tables;
  return (
    (await first(
      database()
        .select({
          id: sourceDocuments.id,
          name: sourceDocuments.name,
          kind: sourceDocuments.kind,
          pageCount: sourceDocuments.pageCount,
          charCount: sourceDocuments.charCount,
        })
        .from(sourceDocuments)
        .where(eq(sourceDocuments.outlineId, outlineId)),
    )) ?? null
  );
}

export interface OutlineStatus {
  id: string;
  state: GenerationState;
  /** Failed tries so far. */
  attempts: number;
  mainTopic: string;
  courseType: CourseType;
  topics: OutlineTopics | null;
  courseId: string | null;
  /** The AI's answers kept being unusable: the member is asked to change the title or cancel. */
  unusable: boolean;
  /** The course language code: the outline is written in it. */
  language: string;
  /** The member's saved edits so far (ADR 0032). */
  revision: number;
  /** "Rewrite the outline" is under way with this instruction; null otherwise. */
  rewriting: string | null;
  /** The member's own material the course is written from, if any. */
  material: MaterialSummary | null;
  /** Changes whenever anything above does (for long polling). */
  version: string;
}

/** Tries whose answers could not be used before the member is told so. */
export const UNUSABLE_NOTICE_AFTER = 3;

export async function outlineStatus(outline: Outline): Promise<OutlineStatus> {
  return {
    id: outline.id,
    state: outline.state,
    attempts: outline.attempts,
    mainTopic: outline.mainTopic,
    courseType: outline.courseType,
    topics: outline.result ?? null,
    courseId: outline.courseId,
    unusable: outline.failureKind === 'unusable' && outline.attempts >= UNUSABLE_NOTICE_AFTER,
    language: outline.language,
    revision: outline.revision,
    rewriting: outline.rewriteInstruction,
    material: await materialSummary(outline.id),
    version: `${outline.state}:${outline.attempts}:${outline.courseId ?? ''}:${outline.mainTopic}:${outline.revision}:${outline.rewriteRound}:${outline.rewriteInstruction === null ? '' : 'rewriting'}`,
  };
}

/**
 * Outlines still owed by the AI (not written or being rewritten, not cancelled), with the round
 * their job is named by: the work the sweeper keeps a job for.
 */
export async function listUnfinishedOutlines(): Promise<{ outlineId: string; round: number }[]> {
  const { outlines } = tables;
  const rows = await database()
    .select({
      outlineId: outlines.id,
      round: outlines.rewriteRound,
      rewriting: outlines.rewriteInstruction,
    })
    .from(outlines)
    .where(owed());
  return rows.map((row) => ({
    outlineId: row.outlineId,
    round: row.rewriting === null ? 0 : row.round,
  }));
}
