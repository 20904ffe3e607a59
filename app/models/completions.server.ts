import { randomBytes } from 'node:crypto';
import { and, desc, eq, gte, isNull, lt, or } from 'drizzle-orm';
import type { courseCompletions } from '../../db/schema';
import { database, first, tables, transaction } from '~/utils/database.server';
import { progressPercent } from '~/domain/progress';
import { lessonsDoneOfCourse } from './quizzes.server';

/**
 * Course completions and their certificate ids: data access only. The finish
 * and certificate-email workflow is app/services/course-completion.server.ts.
 */

export type Completion = typeof courseCompletions.$inferSelect;

export interface Progress {
  done: number;
  total: number;
  /** See progressPercent: 100 only when every lesson is done. */
  percent: number;
}

export async function courseProgress(courseId: string): Promise<Progress> {
  const { done, total } = await lessonsDoneOfCourse(courseId);
  return { done, total, percent: progressPercent(done, total) };
}

export async function getCompletion(courseId: string): Promise<Completion | undefined> {
  const { courseCompletions } = tables;
  return first(
    database().select().from(courseCompletions).where(eq(courseCompletions.courseId, courseId)),
  );
}

/** The course the member finished last, if any. */
export async function latestCompletedCourseId(userId: string): Promise<string | undefined> {
  const { courseCompletions, courses } = tables;
  const row = await first(
    database()
      .select({ courseId: courseCompletions.courseId })
      .from(courseCompletions)
      .innerJoin(courses, eq(courses.id, courseCompletions.courseId))
      .where(eq(courses.userId, userId))
      .orderBy(desc(courseCompletions.completedAt))
      .limit(1),
  );
  return row?.courseId;
}

// Crockford's base32: no I, L, O or U, so an id read off a printed page is typed back right.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A public certificate id such as K7QF-9M2X-PA4D-H8TR (80 random bits). */
export function newCertificateId(): string {
  const bytes = randomBytes(16);
  let id = '';
  for (let i = 0; i < 16; i += 1) id += ALPHABET[bytes[i]! & 31];
  return id.match(/.{4}/g)!.join('-');
}

/** Accepts what a person might type: any case, spaces instead of dashes, O for 0 and so on. */
export function normalizeCertificateId(input: string): string | null {
  const compact = input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (!/^[0-9A-HJKMNP-TV-Z]{16}$/.test(compact)) return null;
  return compact.match(/.{4}/g)!.join('-');
}

export interface PublicCertificate {
  certificateId: string;
  memberName: string;
  courseTitle: string;
  completedAt: Date;
}

/** What the public verification page may show: name, course and date, nothing else. */
export async function getCertificateByPublicId(id: string): Promise<PublicCertificate | undefined> {
  const normalized = normalizeCertificateId(id);
  if (!normalized) return undefined;
  const { courseCompletions } = tables;
  return first(
    database()
      .select({
        certificateId: courseCompletions.certificateId,
        memberName: courseCompletions.memberName,
        courseTitle: courseCompletions.courseTitle,
        completedAt: courseCompletions.completedAt,
      })
      .from(courseCompletions)
      .where(eq(courseCompletions.certificateId, normalized)),
  );
}

/**
 * Records the completion once, in one transaction: only for the course's owner
 * and only when every lesson is done, with the name and title as they will be
 * printed. A second call returns the first record.
 */
export async function recordCompletion(
  userId: string,
  courseId: string,
  now: Date,
): Promise<
  | { ok: true; completion: Completion; created: boolean }
  | { ok: false; reason: 'not-found' | 'incomplete' }
> {
  return transaction(async (tx) => {
    const { courseCompletions, courses, users } = tables;
    const course = await first(
      tx
        .select({ id: courses.id, mainTopic: courses.mainTopic, memberName: users.name })
        .from(courses)
        .innerJoin(users, eq(users.id, courses.userId))
        .where(and(eq(courses.id, courseId), eq(courses.userId, userId))),
    );
    if (!course) return { ok: false as const, reason: 'not-found' as const };
    const existing = await first(
      tx.select().from(courseCompletions).where(eq(courseCompletions.courseId, courseId)),
    );
    if (existing) return { ok: true as const, completion: existing, created: false };
    if ((await courseProgress(courseId)).percent < 100)
      return { ok: false as const, reason: 'incomplete' as const };
    // The certificate id is unique; on the (astronomically rare) clash draw another.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const [inserted] = await tx
        .insert(courseCompletions)
        .values({
          courseId,
          certificateId: newCertificateId(),
          completedAt: now,
          memberName: course.memberName,
          courseTitle: course.mainTopic,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) return { ok: true as const, completion: inserted, created: true };
    }
    throw new Error('Could not draw a unique certificate id');
  });
}

/**
 * How long a claim on the certificate email holds. Longer than any send can
 * take (nodemailer gives up on a silent server after 10 minutes), so a live
 * claim means someone is sending; an older one means its sender died before
 * sending, and the email counts as unsent again.
 */
export const EMAIL_CLAIM_LEASE_MS = 15 * 60_000;

/**
 * Claims the certificate email of a course unless it went out or someone else
 * holds a live claim. True when this caller may send it.
 */
export async function claimCertificateEmail(courseId: string, claimedAt: Date): Promise<boolean> {
  const { courseCompletions } = tables;
  const leaseStart = new Date(claimedAt.getTime() - EMAIL_CLAIM_LEASE_MS);
  const claimed = await database()
    .update(courseCompletions)
    .set({ emailClaimedAt: claimedAt })
    .where(
      and(
        eq(courseCompletions.courseId, courseId),
        isNull(courseCompletions.emailedAt),
        or(
          isNull(courseCompletions.emailClaimedAt),
          lt(courseCompletions.emailClaimedAt, leaseStart),
        ),
      ),
    )
    .returning({ courseId: courseCompletions.courseId });
  return claimed.length > 0;
}

/** The email went out: remember it (and drop any claim). */
export async function markCertificateEmailed(courseId: string) {
  const { courseCompletions } = tables;
  await database()
    .update(courseCompletions)
    .set({ emailedAt: new Date(), emailClaimedAt: null })
    .where(eq(courseCompletions.courseId, courseId));
}

/** A failed send gives its own claim back, so the next try need not wait for the lease. */
export async function releaseCertificateEmailClaim(courseId: string, claimedAt: Date) {
  const { courseCompletions } = tables;
  await database()
    .update(courseCompletions)
    .set({ emailClaimedAt: null })
    .where(
      and(
        eq(courseCompletions.courseId, courseId),
        eq(courseCompletions.emailClaimedAt, claimedAt),
      ),
    );
}

/** A completion with its course owner's current address (for the retry job). */
export async function getCompletionWithOwnerEmail(courseId: string) {
  const { courseCompletions, courses, users } = tables;
  return first(
    database()
      .select({ completion: courseCompletions, email: users.email })
      .from(courseCompletions)
      .innerJoin(courses, eq(courses.id, courseCompletions.courseId))
      .innerJoin(users, eq(users.id, courses.userId))
      .where(eq(courseCompletions.courseId, courseId)),
  );
}

/** Certificates finished since `since` whose email has not gone out (the sweep's part). */
export async function listUnemailedCompletionIds(since: Date): Promise<string[]> {
  const { courseCompletions } = tables;
  const rows = await database()
    .select({ courseId: courseCompletions.courseId })
    .from(courseCompletions)
    .where(and(isNull(courseCompletions.emailedAt), gte(courseCompletions.completedAt, since)));
  return rows.map((row) => row.courseId);
}
