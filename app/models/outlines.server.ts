import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { outlines, type CourseType, type GenerationState } from '../../db/schema';
import type { Db } from '../../db/connection';
import { DEFAULT_LANGUAGE } from '~/domain/languages';
import { db } from '~/utils/db.server';
import { newId } from '~/utils/ids.server';

export type Outline = typeof outlines.$inferSelect;
export type OutlineTopics = NonNullable<Outline['result']>;

/**
 * The insert of /create, built and prepared once per connection: drizzle otherwise rebuilds
 * and re-prepares it on each call, about a millisecond on the request thread, which a burst of
 * simultaneous /create multiplies for every page the same process serves meanwhile.
 */
function prepareCreateOutline(database: Db) {
  return database
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
    .prepare();
}

const createStatements = new WeakMap<Db, ReturnType<typeof prepareCreateOutline>>();

export function createOutline(input: {
  userId: string;
  mainTopic: string;
  subtopics: string[];
  topicCount: number;
  courseType: CourseType;
  language?: string;
}): Outline {
  const database = db();
  let statement = createStatements.get(database);
  if (!statement) {
    statement = prepareCreateOutline(database);
    createStatements.set(database, statement);
  }
  return statement.get({ id: newId(), ...input, language: input.language ?? DEFAULT_LANGUAGE });
}

export function getOutline(id: string): Outline | undefined {
  return db().select().from(outlines).where(eq(outlines.id, id)).get();
}

/** Another member's outline is as absent as one that never existed. */
export function getOutlineForUser(id: string, userId: string): Outline | undefined {
  return db()
    .select()
    .from(outlines)
    .where(and(eq(outlines.id, id), eq(outlines.userId, userId)))
    .get();
}

/** A try starts: running the first time, retrying after a failure. */
export function markOutlineRunning(id: string, failuresSoFar: number) {
  db()
    .update(outlines)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'running', updatedAt: new Date() })
    .where(and(eq(outlines.id, id), isNull(outlines.result), ne(outlines.state, 'cancelled')))
    .run();
}

/** A try put off by the AI rate limit (ADR 0024): waiting again, as before it started. */
export function markOutlineWaiting(id: string, failuresSoFar: number) {
  db()
    .update(outlines)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'queued', updatedAt: new Date() })
    .where(and(eq(outlines.id, id), isNull(outlines.result), ne(outlines.state, 'cancelled')))
    .run();
}

/** Stores a validated outline once; a second writer changes nothing. Returns whether it stored. */
export function storeOutlineResult(id: string, topics: OutlineTopics): boolean {
  const result = db()
    .update(outlines)
    .set({
      result: topics,
      state: 'done',
      lastError: null,
      failureKind: null,
      updatedAt: new Date(),
    })
    .where(and(eq(outlines.id, id), isNull(outlines.result), ne(outlines.state, 'cancelled')))
    .run();
  return result.changes === 1;
}

export function recordOutlineFailure(
  id: string,
  failures: number,
  message: string,
  kind: NonNullable<Outline['failureKind']>,
) {
  db()
    .update(outlines)
    .set({
      state: 'retrying',
      attempts: failures,
      lastError: message.slice(0, 500),
      failureKind: kind,
      updatedAt: new Date(),
    })
    .where(and(eq(outlines.id, id), isNull(outlines.result), ne(outlines.state, 'cancelled')))
    .run();
}

/** The member gives up on an outline not written yet: no more tries. False if it was written. */
export function cancelOutline(id: string): boolean {
  return (
    db()
      .update(outlines)
      .set({ state: 'cancelled', updatedAt: new Date() })
      .where(and(eq(outlines.id, id), isNull(outlines.result)))
      .run().changes === 1
  );
}

/** The member changes the title of an outline not written yet: it starts again from try one. */
export function retitleOutline(id: string, mainTopic: string): boolean {
  return (
    db()
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
      .run().changes === 1
  );
}

/** Links the outline to the course made from it, once; false if it already has one. */
export function claimOutline(id: string, courseId: string): boolean {
  return (
    db()
      .update(outlines)
      .set({ courseId, updatedAt: new Date() })
      .where(and(eq(outlines.id, id), isNull(outlines.courseId)))
      .run().changes === 1
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
  /** Changes whenever anything above does (for long polling). */
  version: string;
}

/** Tries whose answers could not be used before the member is told so. */
export const UNUSABLE_NOTICE_AFTER = 3;

export function outlineStatus(outline: Outline): OutlineStatus {
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
    version: `${outline.state}:${outline.attempts}:${outline.courseId ?? ''}:${outline.mainTopic}`,
  };
}

/** Outlines still owed by the AI (not written, not cancelled): the work the sweeper keeps a job for. */
export function listUnfinishedOutlineIds(): string[] {
  return db()
    .select({ id: outlines.id })
    .from(outlines)
    .where(and(isNull(outlines.result), ne(outlines.state, 'cancelled')))
    .all()
    .map((row) => row.id);
}
