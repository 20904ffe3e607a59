import { fail, ok, type Result } from '~/domain/result';
import {
  claimCertificateEmail,
  getCompletion,
  getCompletionWithOwnerEmail,
  latestCompletedCourseId,
  markCertificateEmailed,
  recordCompletion,
  releaseCertificateEmailClaim,
  type Completion,
} from '~/models/completions.server';
import { getCourseForUser } from '~/models/courses.server';
import { getUserEmail } from '~/models/users.server';
import { enqueueCertificateEmail } from '~/queues/certificate-email.server';
import { emailCertificate } from '~/services/certificate/email.server';
import { type CertificateData } from '~/services/certificate/template.server';
import { log } from '~/utils/logger.server';
import { hit, tooManyRequestsFailure, type RateLimit } from '~/utils/rate-limit.server';

/**
 * Finishing a course and sending its certificate. Ownership is always checked
 * against the course's owner: another member's course looks exactly like a
 * missing one.
 */

/** A member may ask for the certificate email five times an hour. */
const CERTIFICATE_EMAIL_LIMIT: RateLimit = {
  name: 'certificate-email',
  max: 5,
  windowSeconds: 60 * 60,
};

const NOT_FOUND_MESSAGE = 'Course not found';
const INCOMPLETE_MESSAGE = 'Finish every lesson of this course to get its certificate';
const NOT_FINISHED_MESSAGE = 'This course is not finished yet';

export function toCertificateData(completion: Completion): CertificateData {
  return {
    certificateId: completion.certificateId,
    memberName: completion.memberName,
    courseTitle: completion.courseTitle,
    completedAt: completion.completedAt,
  };
}

/**
 * Records the completion once (owner only, every lesson done), then emails the
 * certificate if it has not gone out yet. A failed email never undoes the
 * completion: the worker retries it, and so does the next finish.
 */
export async function finishCourse(
  userId: string,
  courseId: string,
  now = new Date(),
): Promise<Result<{ completion: Completion; created: boolean; emailed: boolean }>> {
  const recorded = await recordCompletion(userId, courseId, now);
  if (!recorded.ok)
    return recorded.reason === 'not-found'
      ? fail(NOT_FOUND_MESSAGE, 404)
      : fail(INCOMPLETE_MESSAGE, 409);
  if (recorded.created)
    log.info('course.finished', { courseId, certificateId: recorded.completion.certificateId });

  const emailed = await emailCertificateOnce(userId, recorded.completion);
  return ok({
    completion: (await getCompletion(courseId)) ?? recorded.completion,
    created: recorded.created,
    emailed,
  });
}

type EmailOutcome = 'sent' | 'claimed-elsewhere' | 'failed';

/**
 * Sends the certificate unless it went out already. The email is claimed
 * before sending, so two finishes at once send one email, and marked sent only
 * once it is out. A failed send releases the claim; a crash leaves it, and it
 * lapses after the lease.
 */
async function claimAndSend(
  completion: Completion,
  to: string,
  now = new Date(),
): Promise<EmailOutcome> {
  if (!(await claimCertificateEmail(completion.courseId, now))) return 'claimed-elsewhere';
  const sent = await emailCertificate(to, toCertificateData(completion));
  if (sent) await markCertificateEmailed(completion.courseId);
  else await releaseCertificateEmailClaim(completion.courseId, now);
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
  const to = await getUserEmail(userId);
  if (!to) return false;
  await enqueueCertificateEmail(completion.courseId);
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
  const row = await getCompletionWithOwnerEmail(courseId);
  if (!row) return 'gone';
  if (row.completion.emailedAt) return 'already-sent';
  const outcome = await claimAndSend(row.completion, row.email, now);
  // Someone else holds a live claim: look again on the next try.
  if (outcome === 'claimed-elsewhere') return 'failed';
  return outcome;
}

/**
 * Emails the certificate of the member's own finished course to the member's
 * own address, on request. Nothing in it comes from the client but the course id; without one
 * (the spec's clients send only html and email, just after finishing), the course the member
 * finished last.
 */
export async function sendCertificate(
  userId: string,
  requestedCourseId?: string,
): Promise<Result<{ sent: boolean; to: string }>> {
  const limit = await hit(CERTIFICATE_EMAIL_LIMIT, userId);
  if (!limit.allowed) return tooManyRequestsFailure(limit);
  const courseId = requestedCourseId ?? (await latestCompletedCourseId(userId));
  if (!courseId) return fail(NOT_FINISHED_MESSAGE, 409);
  if (!(await getCourseForUser(courseId, userId))) return fail(NOT_FOUND_MESSAGE, 404);
  const completion = await getCompletion(courseId);
  if (!completion) return fail(NOT_FINISHED_MESSAGE, 409);
  const to = await getUserEmail(userId);
  if (!to) return fail(NOT_FOUND_MESSAGE, 404);
  const sent = await emailCertificate(to, toCertificateData(completion));
  if (sent) await markCertificateEmailed(courseId);
  return ok({ sent, to });
}
