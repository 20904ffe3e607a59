import { eq } from 'drizzle-orm';
import { database, first, tables } from '~/utils/database.server';

/** The public link of a course, if its owner shared it (ADR 0021). */
export async function shareTokenOf(courseId: string): Promise<string | null> {
  const { courseShares } = tables;
  const row = await first(
    database()
      .select({ token: courseShares.token })
      .from(courseShares)
      .where(eq(courseShares.courseId, courseId)),
  );
  return row?.token ?? null;
}

/** Shares the course with this token, unless it is shared already; answers the live token. */
export async function insertShare(courseId: string, token: string): Promise<string> {
  const { courseShares } = tables;
  await database().insert(courseShares).values({ courseId, token }).onConflictDoNothing();
  return (await shareTokenOf(courseId))!;
}

/** Revokes the link at once; true when there was one. */
export async function deleteShare(courseId: string): Promise<boolean> {
  const { courseShares } = tables;
  const deleted = await database()
    .delete(courseShares)
    .where(eq(courseShares.courseId, courseId))
    .returning({ courseId: courseShares.courseId });
  return deleted.length > 0;
}

/** The course a link opens, or undefined for a revoked or made-up token. */
export async function courseIdOfShare(token: string): Promise<string | undefined> {
  const { courseShares } = tables;
  const row = await first(
    database()
      .select({ courseId: courseShares.courseId })
      .from(courseShares)
      .where(eq(courseShares.token, token)),
  );
  return row?.courseId;
}
