import { eq } from 'drizzle-orm';
import { courseShares } from '../../db/schema';
import { db } from '~/utils/db.server';

/** The public link of a course, if its owner shared it (ADR 0021). */
export function shareTokenOf(courseId: string): string | null {
  const row = db()
    .select({ token: courseShares.token })
    .from(courseShares)
    .where(eq(courseShares.courseId, courseId))
    .get();
  return row?.token ?? null;
}

/** Shares the course with this token, unless it is shared already; answers the live token. */
export function insertShare(courseId: string, token: string): string {
  db().insert(courseShares).values({ courseId, token }).onConflictDoNothing().run();
  return shareTokenOf(courseId)!;
}

/** Revokes the link at once; true when there was one. */
export function deleteShare(courseId: string): boolean {
  return db().delete(courseShares).where(eq(courseShares.courseId, courseId)).run().changes > 0;
}

/** The course a link opens, or undefined for a revoked or made-up token. */
export function courseIdOfShare(token: string): string | undefined {
  return db()
    .select({ courseId: courseShares.courseId })
    .from(courseShares)
    .where(eq(courseShares.token, token))
    .get()?.courseId;
}
