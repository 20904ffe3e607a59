import { and, eq } from 'drizzle-orm';
import type { sourceDocuments, MaterialSection } from '../../db/schema';
import { database, first, tables } from '~/utils/database.server';

/**
 * The member's own material (ADR 0032). Written with its outline (outlines.server.ts) and given
 * to the course made from it (claimOutline); read here by its owner's pages and by the jobs that
 * write the course's lessons.
 */
export type SourceDocument = typeof sourceDocuments.$inferSelect;

/** Another member's document is as absent as one that never existed. */
export async function getDocumentForUser(
  id: string,
  userId: string,
): Promise<SourceDocument | undefined> {
  const { sourceDocuments } = tables;
  return first(
    database()
      .select()
      .from(sourceDocuments)
      .where(and(eq(sourceDocuments.id, id), eq(sourceDocuments.userId, userId))),
  );
}

/** The sections a course's lessons are written from, if it was made from material. */
export async function materialOfCourse(
  courseId: string,
): Promise<{ id: string; sections: MaterialSection[] } | undefined> {
  const { sourceDocuments } = tables;
  return first(
    database()
      .select({ id: sourceDocuments.id, sections: sourceDocuments.sections })
      .from(sourceDocuments)
      .where(eq(sourceDocuments.courseId, courseId)),
  );
}

/** The id of a course's material, for the link beside its lessons' sources. */
export async function documentIdOfCourse(courseId: string): Promise<string | null> {
  const { sourceDocuments } = tables;
  const row = await first(
    database()
      .select({ id: sourceDocuments.id })
      .from(sourceDocuments)
      .where(eq(sourceDocuments.courseId, courseId)),
  );
  return row?.id ?? null;
}
