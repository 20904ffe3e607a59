import { and, eq } from 'drizzle-orm';
import { sourceDocuments, type MaterialSection } from '../../db/schema';
import { db } from '~/utils/db.server';

/**
 * The member's own material (ADR 0032). Written with its outline (outlines.server.ts) and given
 * to the course made from it (claimOutline); read here by its owner's pages and by the jobs that
 * write the course's lessons.
 */
export type SourceDocument = typeof sourceDocuments.$inferSelect;

/** Another member's document is as absent as one that never existed. */
export function getDocumentForUser(id: string, userId: string): SourceDocument | undefined {
  return db()
    .select()
    .from(sourceDocuments)
    .where(and(eq(sourceDocuments.id, id), eq(sourceDocuments.userId, userId)))
    .get();
}

/** The sections a course's lessons are written from, if it was made from material. */
export function materialOfCourse(
  courseId: string,
): { id: string; sections: MaterialSection[] } | undefined {
  return db()
    .select({ id: sourceDocuments.id, sections: sourceDocuments.sections })
    .from(sourceDocuments)
    .where(eq(sourceDocuments.courseId, courseId))
    .get();
}

/** The id of a course's material, for the link beside its lessons' sources. */
export function documentIdOfCourse(courseId: string): string | null {
  return (
    db()
      .select({ id: sourceDocuments.id })
      .from(sourceDocuments)
      .where(eq(sourceDocuments.courseId, courseId))
      .get()?.id ?? null
  );
}
