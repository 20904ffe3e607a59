import { z } from 'zod';
import { log } from '~/utils/logger.server';
import { defineQueue } from './factory.server';

/**
 * The safety net of the certificate email, queued at finish before the email
 * is sent: its first try comes 30 s later and does nothing if the email went
 * out. Otherwise it is tried up to 12 times in all, with BullMQ's exponential
 * backoff doubling the pause from 30 s (30 s, 1 min, 2 min, ... 8.5 h):
 * 30 s x (2^11 - 1), about 17 hours after the first try. After that the member
 * can still send it from the certificate page. Only an id travels: no address,
 * no content. One job per course at a time, so repeated finishes never pile up.
 */
export const certificateEmailQueue = defineQueue({
  name: 'certificate-email',
  payload: z.object({ courseId: z.string().min(1).max(100) }),
  jobName: () => 'send',
  jobId: ({ courseId }) => `certificate-email-${courseId}`,
  defaultJobOptions: {
    attempts: 12,
    backoff: { type: 'exponential', delay: 30_000 },
    // Gone once done, so the job id only holds back duplicates while one is pending.
    removeOnComplete: true,
    removeOnFail: true,
  },
});

/**
 * Queues the safety net. Never throws: without Redis the next finish or the
 * page's Email Certificate button still sends the email.
 */
export async function enqueueCertificateEmail(
  courseId: string,
  options: { delayMs?: number } = {},
): Promise<boolean> {
  try {
    await certificateEmailQueue.add({ courseId }, { delay: options.delayMs ?? 30_000 });
    return true;
  } catch (error) {
    log.warn('certificate.email_enqueue_failed', { courseId, error });
    return false;
  }
}
