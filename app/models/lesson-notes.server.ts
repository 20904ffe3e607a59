import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { database, first, tables } from '~/utils/database.server';

export interface LessonNote {
  body: string;
  revision: number;
  updatedAt: Date | null;
}

const NO_NOTE: LessonNote = { body: '', revision: 0, updatedAt: null };

/** The member's note on a lesson; an empty one (revision 0) when none was saved. */
export async function getLessonNote(userId: string, lessonId: number): Promise<LessonNote> {
  const { lessonNotes } = tables;
  return (
    (await first(
      database()
        .select({
          body: lessonNotes.body,
          revision: lessonNotes.revision,
          updatedAt: lessonNotes.updatedAt,
        })
        .from(lessonNotes)
        .where(and(eq(lessonNotes.userId, userId), eq(lessonNotes.lessonId, lessonId))),
    )) ?? NO_NOTE
  );
}

/**
 * Stores the note whole (the last write wins) and counts the save; one statement, so two saves
 * at once each get their own revision.
 */
export async function saveLessonNote(
  userId: string,
  lessonId: number,
  body: string,
): Promise<LessonNote> {
  const { lessonNotes } = tables;
  const [saved] = await database()
    .insert(lessonNotes)
    .values({ userId, lessonId, body, revision: 1 })
    .onConflictDoUpdate({
      target: [lessonNotes.userId, lessonNotes.lessonId],
      set: {
        body,
        revision: sql`${lessonNotes.revision} + 1`,
        updatedAt: new Date(),
      },
    })
    .returning({
      body: lessonNotes.body,
      revision: lessonNotes.revision,
      updatedAt: lessonNotes.updatedAt,
    });
  return saved!;
}

/**
 * Every non-empty note of the member on this course, in lesson order (the course view's order):
 * the notes view and the course export read it.
 */
export async function notesForCourse(
  userId: string,
  courseId: string,
): Promise<{ lessonId: number; body: string }[]> {
  const { lessonNotes, lessons } = tables;
  return database()
    .select({ lessonId: lessonNotes.lessonId, body: lessonNotes.body })
    .from(lessonNotes)
    .innerJoin(lessons, eq(lessons.id, lessonNotes.lessonId))
    .where(
      and(eq(lessonNotes.userId, userId), eq(lessons.courseId, courseId), ne(lessonNotes.body, '')),
    )
    .orderBy(asc(lessons.ordinal), asc(lessons.id));
}
