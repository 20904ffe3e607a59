import { UnrecoverableError, type Job } from 'bullmq';
import { certificateEmailQueue } from '~/queues/certificate-email.server';
import { retryCertificateEmail } from '~/services/course-completion.server';

/**
 * Sends a certificate email that has not gone out (its send failed, or its
 * sender crashed); does nothing if it has. Throws (so BullMQ retries) while it fails.
 */
export async function processCertificateEmail(job: Job) {
  const { courseId } = certificateEmailQueue.payload.parse(job.data);
  const outcome = await retryCertificateEmail(courseId);
  if (outcome === 'gone') throw new UnrecoverableError('The course or its completion is gone');
  if (outcome === 'failed') throw new Error('The certificate email could not be sent');
  return { outcome };
}
