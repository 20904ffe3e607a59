import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { courseCompletions, courses, lessons, users } from '../../db/schema';
import { enqueueCertificateEmail } from '../../jobs/certificate-email/queue';
import { getCourseForUser } from './courses.server';
import { emailCertificate, type CertificateData } from '~/services/certificate.server';
import { db } from '~/utils/db.server';
import { log } from '~/utils/logger.server';
import { progressPercent } from '~/domain/progress';

/**
 * Course completion and certificates. Ownership is always checked against
 * `courses.user_id` (getCourseForUser: another member's course looks exactly
 * like a missing one).
 */

export type Completion = typeof courseCompletions.$inferSelect;

export interface Progress {
  done: number;
  total: number;
  /** See progressPercent: 100 only when every lesson is done. */
  percent: number;
}

export const NOT_FOUND_MESSAGE = 'Course not found';
export const INCOMPLETE_MESSAGE = 'Finish every lesson of this course to get its certificate';
export const NOT_FINISHED_MESSAGE = 'This course is not finished yet';

export function courseProgress(courseId: string): Progress {
  const row = db()
    .select({
      total: count(),
      done: sql<number>`coalesce(sum(case when ${lessons.done} then 1 else 0 end), 0)`,
    })
    .from(lessons)
    .where(eq(lessons.courseId, courseId))
    .get();
  const total = row?.total ?? 0;
  const done = Number(row?.done ?? 0);
  return { done, total, percent: progressPercent(done, total) };
}

export function getCompletion(courseId: string): Completion | undefined {
  return db()
    .select()
    .from(courseCompletions)
    .where(eq(courseCompletions.courseId, courseId))
    .get();
}

/** Which of these courses are finished, for the Certificate button on course cards. */
export function completedCourseIds(courseIds: string[]): Set<string> {
  if (courseIds.length === 0) return new Set();
  const rows = db()
    .select({ courseId: courseCompletions.courseId })
    .from(courseCompletions)
    .where(inArray(courseCompletions.courseId, courseIds))
    .all();
  return new Set(rows.map((row) => row.courseId));
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
export function getCertificateByPublicId(id: string): PublicCertificate | undefined {
  const normalized = normalizeCertificateId(id);
  if (!normalized) return undefined;
  return db()
    .select({
      certificateId: courseCompletions.certificateId,
      memberName: courseCompletions.memberName,
      courseTitle: courseCompletions.courseTitle,
      completedAt: courseCompletions.completedAt,
    })
    .from(courseCompletions)
    .where(eq(courseCompletions.certificateId, normalized))
    .get();
}

export function toCertificateData(completion: Completion): CertificateData {
  return {
    certificateId: completion.certificateId,
    memberName: completion.memberName,
    courseTitle: completion.courseTitle,
    completedAt: completion.completedAt,
  };
}

export type FinishResult =
  | { ok: true; completion: Completion; created: boolean; emailed: boolean }
  | { ok: false; reason: 'not-found' | 'incomplete'; message: string };

/**
 * Records the completion once (owner only, every lesson done), with the name
 * and title as they will be printed; a second call returns the first record.
 * Then emails the certificate if it has not gone out yet. A failed email never
 * undoes the completion: the worker retries it, and so does the next finish.
 */
export async function finishCourse(
  userId: string,
  courseId: string,
  now = new Date(),
): Promise<FinishResult> {
  const recorded = db().transaction((tx) => {
    const course = tx
      .select({ id: courses.id, mainTopic: courses.mainTopic, memberName: users.name })
      .from(courses)
      .innerJoin(users, eq(users.id, courses.userId))
      .where(and(eq(courses.id, courseId), eq(courses.userId, userId)))
      .get();
    if (!course) return { ok: false as const, reason: 'not-found' as const };
    const existing = tx
      .select()
      .from(courseCompletions)
      .where(eq(courseCompletions.courseId, courseId))
      .get();
    if (existing) return { ok: true as const, completion: existing, created: false };
    if (courseProgress(courseId).percent < 100)
      return { ok: false as const, reason: 'incomplete' as const };
    // The certificate id is unique; on the (astronomically rare) clash draw another.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const inserted = tx
        .insert(courseCompletions)
        .values({
          courseId,
          certificateId: newCertificateId(),
          completedAt: now,
          memberName: course.memberName,
          courseTitle: course.mainTopic,
        })
        .onConflictDoNothing()
        .returning()
        .get();
      if (inserted) return { ok: true as const, completion: inserted, created: true };
    }
    throw new Error('Could not draw a unique certificate id');
  });

  if (!recorded.ok)
    return {
      ok: false,
      reason: recorded.reason,
      message: recorded.reason === 'not-found' ? NOT_FOUND_MESSAGE : INCOMPLETE_MESSAGE,
    };
  if (recorded.created)
    log.info('course.finished', { courseId, certificateId: recorded.completion.certificateId });

  const emailed = await emailCertificateOnce(userId, recorded.completion);
  return {
    ok: true,
    completion: getCompletion(courseId) ?? recorded.completion,
    created: recorded.created,
    emailed,
  };
}

function memberEmail(userId: string): string | undefined {
  return db().select({ email: users.email }).from(users).where(eq(users.id, userId)).get()?.email;
}

type EmailOutcome = 'sent' | 'claimed-elsewhere' | 'failed';

/**
 * How long a claim on the certificate email holds. Longer than any send can
 * take (nodemailer gives up on a silent server after 10 minutes), so a live
 * claim means someone is sending; an older one means its sender died before
 * sending, and the email counts as unsent again.
 */
export const EMAIL_CLAIM_LEASE_MS = 15 * 60_000;

/**
 * Sends the certificate unless it went out already. `email_claimed_at` is
 * claimed before sending, so two finishes at once send one email; `emailed_at`
 * is set only once the email is out. A failed send releases the claim; a
 * crash leaves it, and it lapses after the lease.
 */
async function claimAndSend(
  completion: Completion,
  to: string,
  now = new Date(),
): Promise<EmailOutcome> {
  const claimedAt = now;
  const leaseStart = new Date(now.getTime() - EMAIL_CLAIM_LEASE_MS);
  const claim = db()
    .update(courseCompletions)
    .set({ emailClaimedAt: claimedAt })
    .where(
      and(
        eq(courseCompletions.courseId, completion.courseId),
        isNull(courseCompletions.emailedAt),
        or(
          isNull(courseCompletions.emailClaimedAt),
          lt(courseCompletions.emailClaimedAt, leaseStart),
        ),
      ),
    )
    .run();
  if (claim.changes === 0) return 'claimed-elsewhere';
  const sent = await emailCertificate(to, toCertificateData(completion));
  if (sent)
    db()
      .update(courseCompletions)
      .set({ emailedAt: new Date(), emailClaimedAt: null })
      .where(eq(courseCompletions.courseId, completion.courseId))
      .run();
  else
    db()
      .update(courseCompletions)
      .set({ emailClaimedAt: null })
      .where(
        and(
          eq(courseCompletions.courseId, completion.courseId),
          eq(courseCompletions.emailClaimedAt, claimedAt),
        ),
      )
      .run();
  return sent ? 'sent' : 'failed';
}

/**
 * At finish: send once. The retry job (one per course, delayed) is queued
 * before anything is claimed, so a crash between claim and send cannot lose
 * the email: the job sends it once the claim has lapsed, and does nothing if
 * it went out. The next finish also sends it while it is unsent.
 */
async function emailCertificateOnce(userId: string, completion: Completion): Promise<boolean> {
  if (completion.emailedAt) return false;
  const to = memberEmail(userId);
  if (!to) return false;
  await enqueueCertificateEmail({ courseId: completion.courseId });
  const outcome = await claimAndSend(completion, to);
  if (outcome === 'failed')
    log.warn('certificate.email_will_retry', { courseId: completion.courseId });
  return outcome === 'sent';
}

/**
 * The worker's certificate-email job: to the course owner's current address,
 * unless it has gone out meanwhile.
 */
export async function retryCertificateEmail(
  courseId: string,
  now = new Date(),
): Promise<'sent' | 'already-sent' | 'failed' | 'gone'> {
  const row = db()
    .select({ completion: courseCompletions, email: users.email })
    .from(courseCompletions)
    .innerJoin(courses, eq(courses.id, courseCompletions.courseId))
    .innerJoin(users, eq(users.id, courses.userId))
    .where(eq(courseCompletions.courseId, courseId))
    .get();
  if (!row) return 'gone';
  if (row.completion.emailedAt) return 'already-sent';
  const outcome = await claimAndSend(row.completion, row.email, now);
  // Someone else holds a live claim: look again on the next try.
  if (outcome === 'claimed-elsewhere') return 'failed';
  return outcome;
}

export type SendResult =
  | { ok: true; sent: boolean; to: string }
  | { ok: false; reason: 'not-found' | 'not-finished'; message: string };

/**
 * Emails the certificate of the member's own finished course to the member's
 * own address, on request. Nothing in it comes from the client but the course id.
 */
export async function sendCertificate(userId: string, courseId: string): Promise<SendResult> {
  if (!getCourseForUser(courseId, userId))
    return { ok: false, reason: 'not-found', message: NOT_FOUND_MESSAGE };
  const completion = getCompletion(courseId);
  if (!completion) return { ok: false, reason: 'not-finished', message: NOT_FINISHED_MESSAGE };
  const to = memberEmail(userId);
  if (!to) return { ok: false, reason: 'not-found', message: NOT_FOUND_MESSAGE };
  const sent = await emailCertificate(to, toCertificateData(completion));
  if (sent)
    db()
      .update(courseCompletions)
      .set({ emailedAt: new Date() })
      .where(eq(courseCompletions.courseId, courseId))
      .run();
  return { ok: true, sent, to };
}
