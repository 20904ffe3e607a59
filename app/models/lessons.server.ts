import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { lessons, CourseType, LessonSource, MediaState } from '../../db/schema';
import { database, first, tables, transaction, type Tables } from '~/utils/database.server';
import { insertOwedDecks } from './flashcards.server';
import { replaceLessonText } from './lesson-versions.server';

/**
 * One row per lesson. Every write here touches exactly one lesson row and only
 * the columns its writer owns: a lesson job writes the generated content and
 * its state, the learner writes `done`. So parallel jobs, and a learner
 * studying while jobs run, never overwrite each other's work.
 */
export type Lesson = typeof lessons.$inferSelect;

export interface LessonCredit {
  name: string;
  url: string;
}

export function parseCredit(value: string | null): LessonCredit | null {
  if (!value) return null;
  try {
    const credit = JSON.parse(value) as Partial<LessonCredit>;
    return typeof credit.name === 'string' && typeof credit.url === 'string'
      ? { name: credit.name, url: credit.url }
      : null;
  } catch {
    return null;
  }
}

export const serializeCredit = (credit: LessonCredit) => JSON.stringify(credit);

export interface LessonJobContext {
  lesson: Lesson;
  course: {
    id: string;
    mainTopic: string;
    type: CourseType;
    photoUrl: string | null;
    language: string;
  };
  /** The title of the lesson's topic (its material's passages are chosen with it). */
  topicTitle: string;
  /** The course's first lesson also looks for the course card photo. */
  isFirst: boolean;
}

/** What a lesson job needs, or undefined when the lesson (or its course) was deleted. */
export async function getLessonJobContext(lessonId: number): Promise<LessonJobContext | undefined> {
  const { courses, lessons, topics } = tables;
  const row = await first(
    database()
      .select({
        lesson: lessons,
        course: {
          id: courses.id,
          mainTopic: courses.mainTopic,
          type: courses.type,
          photoUrl: courses.photoUrl,
          language: courses.language,
        },
        topicTitle: topics.title,
      })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .innerJoin(topics, eq(topics.id, lessons.topicId))
      .where(eq(lessons.id, lessonId)),
  );
  return row ? { ...row, isFirst: row.lesson.ordinal === 0 } : undefined;
}

export async function getLesson(lessonId: number): Promise<Lesson | undefined> {
  const { lessons } = tables;
  return first(database().select().from(lessons).where(eq(lessons.id, lessonId)));
}

/** A lesson of this course (the caller has already checked the course is the member's). */
export async function getLessonOfCourse(
  lessonId: number,
  courseId: string,
): Promise<Lesson | undefined> {
  const { lessons } = tables;
  return first(
    database()
      .select()
      .from(lessons)
      .where(and(eq(lessons.id, lessonId), eq(lessons.courseId, courseId))),
  );
}

export async function listLessonsOfCourse(courseId: string): Promise<Lesson[]> {
  const { lessons } = tables;
  return database()
    .select()
    .from(lessons)
    .where(eq(lessons.courseId, courseId))
    .orderBy(asc(lessons.ordinal));
}

/** A try starts: running the first time, retrying after a failure. Never undoes 'done'. */
export async function markLessonRunning(lessonId: number, failuresSoFar: number) {
  const { lessons } = tables;
  await database()
    .update(lessons)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'running' })
    .where(and(eq(lessons.id, lessonId), ne(lessons.state, 'done')));
}

/**
 * A try put off by the AI rate limit (ADR 0024): back to how it looked before the try started,
 * so the member reads "waiting", not a failure. Never undoes 'done'.
 */
export async function markLessonWaiting(lessonId: number, failuresSoFar: number) {
  const { lessons } = tables;
  await database()
    .update(lessons)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'queued' })
    .where(and(eq(lessons.id, lessonId), ne(lessons.state, 'done')));
}

export interface LessonMedia {
  imageUrl?: string | null;
  imageCredit?: LessonCredit | null;
  youtubeId?: string | null;
}

function mediaColumns(media: LessonMedia) {
  return {
    ...(media.imageUrl !== undefined ? { imageUrl: media.imageUrl } : {}),
    ...(media.imageCredit !== undefined
      ? { imageCredit: media.imageCredit ? serializeCredit(media.imageCredit) : null }
      : {}),
    ...(media.youtubeId !== undefined ? { youtubeId: media.youtubeId } : {}),
  };
}

/**
 * Stores a generated lesson once: only while it has no theory, so a job run
 * twice (after a crash) cannot write it twice. The lesson's flashcards are owed from then on
 * (ADR 0033), in the same transaction. Returns whether it stored.
 */
export async function storeLessonContent(
  lessonId: number,
  content: {
    theory: string;
    media: LessonMedia;
    mediaState: MediaState;
    /** The sections of the course's material the theory was written from (ADR 0032). */
    sources?: LessonSource[] | null;
  },
): Promise<boolean> {
  return transaction(async (tx) => {
    const { lessons } = tables;
    const [stored] = await tx
      .update(lessons)
      .set({
        theory: content.theory,
        sources: content.sources?.length ? content.sources : null,
        ...mediaColumns(content.media),
        mediaState: content.mediaState,
        state: 'done',
        lastError: null,
        generatedAt: new Date(),
      })
      .where(and(eq(lessons.id, lessonId), isNull(lessons.theory)))
      .returning({ courseId: lessons.courseId });
    if (stored) await insertOwedDecks([{ lessonId, courseId: stored.courseId }]);
    return stored !== undefined;
  });
}

/**
 * Media found later (after a vendor failure, or for a lesson whose theory came
 * from elsewhere): fills only what is still empty, so an image or video the
 * client supplied is kept, and marks the media done.
 */
export async function storeLessonMedia(lessonId: number, media: LessonMedia) {
  const { lessons } = tables;
  const image =
    media.imageUrl !== undefined
      ? {
          imageUrl: sql`coalesce(${lessons.imageUrl}, ${media.imageUrl})`,
          // The credit belongs to the image: set only with it.
          imageCredit: sql`case when ${lessons.imageUrl} is null then ${
            media.imageCredit ? serializeCredit(media.imageCredit) : null
          } else ${lessons.imageCredit} end`,
        }
      : {};
  const video =
    media.youtubeId !== undefined
      ? { youtubeId: sql`coalesce(${lessons.youtubeId}, ${media.youtubeId})` }
      : {};
  await database()
    .update(lessons)
    .set({ ...image, ...video, mediaState: 'done', lastError: null })
    .where(eq(lessons.id, lessonId));
}

/** A failed try: the lesson retries (or, when only its media failed, its media does). */
export async function recordLessonFailure(lessonId: number, failures: number, message: string) {
  const lesson = await getLesson(lessonId);
  if (!lesson) return;
  const { lessons } = tables;
  await database()
    .update(lessons)
    .set(
      lesson.theory
        ? { mediaState: 'retrying', lastError: message.slice(0, 500) }
        : { state: 'retrying', attempts: failures, lastError: message.slice(0, 500) },
    )
    .where(eq(lessons.id, lessonId));
}

/** The learner opened a generated lesson. Touches only `done`. */
export async function markLessonDone(lessonId: number) {
  const { lessons } = tables;
  await database()
    .update(lessons)
    .set({ done: true })
    .where(and(eq(lessons.id, lessonId), eq(lessons.done, false), eq(lessons.state, 'done')));
}

/**
 * Sets the learner's own fields and, when given, replaces content (API
 * clients). Theory the client supplies for a lesson still without theory
 * finishes it, media included: its job stores nothing more, and the client's
 * image or video stays. (A client echoing a generated lesson back does not
 * stop a media retry under way.)
 */
export interface ClientLessonUpdate {
  lessonId: number;
  done: boolean;
  theory?: string;
  imageUrl?: string;
  youtubeId?: string;
}

/**
 * Applies a whole course's client updates in one transaction: all of them or none. A lesson that
 * gets its first theory this way owes its flashcards, as one a job writes does.
 */
export async function updateLessonsFromClient(updates: ClientLessonUpdate[]) {
  await transaction(async () => {
    for (const update of updates) await updateLessonFromClient(update);
  });
}

async function updateLessonFromClient({ lessonId, ...given }: ClientLessonUpdate) {
  const { lessons } = tables;
  const current = given.theory
    ? await first(
        database()
          .select({ courseId: lessons.courseId, theory: lessons.theory })
          .from(lessons)
          .where(eq(lessons.id, lessonId)),
      )
    : undefined;
  let update = given;
  if (current && current.theory === null)
    await insertOwedDecks([{ lessonId, courseId: current.courseId }]);
  else if (current && current.theory !== given.theory) {
    // Another text for a written lesson is an edit (ADR 0059): the text it replaces is kept as a
    // version, and a running regeneration is not overwritten ('busy' leaves the lesson as it is).
    await replaceLessonText(lessonId, { kind: 'edited', theory: given.theory! });
    update = { ...given, theory: undefined };
  }
  await database()
    .update(lessons)
    .set({
      done: update.done,
      ...(update.theory
        ? {
            theory: update.theory,
            state: 'done' as const,
            mediaState: sql<MediaState>`case when ${lessons.theory} is null then 'done' else ${lessons.mediaState} end`,
            generatedAt: new Date(),
          }
        : {}),
      ...(update.imageUrl !== undefined ? { imageUrl: update.imageUrl || null } : {}),
      ...(update.youtubeId !== undefined ? { youtubeId: update.youtubeId || null } : {}),
    })
    .where(eq(lessons.id, lessonId));
}

/** Whether a lesson still owes its job work: theory or media not done. */
const owesWork = ({ lessons }: Tables) =>
  sql`(${lessons.state} != 'done' OR ${lessons.mediaState} != 'done')`;

/**
 * Lessons still owed theory or media, with their member, oldest course first and each course in
 * order: the sweeper gives each a job again, members taking turns (ADR 38).
 */
export async function listUnfinishedLessons(): Promise<
  {
    lessonId: number;
    courseId: string;
    ordinal: number;
    userId: string;
  }[]
> {
  const { courses, lessons } = tables;
  return database()
    .select({
      lessonId: lessons.id,
      courseId: lessons.courseId,
      ordinal: lessons.ordinal,
      userId: courses.userId,
    })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(owesWork(tables))
    .orderBy(asc(courses.createdAt), asc(courses.id), asc(lessons.ordinal));
}

/**
 * Lessons the member of `courseId` is still owed in their other courses: the turns that course's
 * lessons wait behind, so one member's backlog does not hold up another's new course (ADR 38).
 */
export async function countOwedLessonsInOtherCourses(courseId: string): Promise<number> {
  const { courses, lessons } = tables;
  const row = await first(
    database()
      .select({ owed: count() })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(
        and(
          eq(courses.userId, sql`(SELECT user_id FROM courses WHERE id = ${courseId})`),
          ne(lessons.courseId, courseId),
          owesWork(tables),
        ),
      ),
  );
  return row?.owed ?? 0;
}
