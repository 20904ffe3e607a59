import { Queue } from 'bullmq';
import { z } from 'zod';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { producerRedis } from '~/utils/redis.server';

export const CERTIFICATE_EMAIL_QUEUE = 'certificate-email';

/** Retry the certificate email of one finished course (only an id: no address, no content). */
export const certificateEmailPayload = z.object({ courseId: z.string().min(1).max(100) });
export type CertificateEmailPayload = z.infer<typeof certificateEmailPayload>;

let queue: Queue | undefined;

/**
 * A failed certificate email is tried again after 30 s, then with doubling
 * pauses for about a day and a half (12 tries). After that the member can
 * still send it from the certificate page.
 */
export function certificateEmailQueue(): Queue {
  queue ??= new Queue(CERTIFICATE_EMAIL_QUEUE, {
    connection: producerRedis(),
    prefix: env().REDIS_PREFIX,
    defaultJobOptions: {
      attempts: 12,
      backoff: { type: 'exponential', delay: 30_000 },
      // Gone once done, so the job id only holds back duplicates while one is pending.
      removeOnComplete: true,
      removeOnFail: true,
    },
  });
  return queue;
}

/**
 * Queues a retry; one job per course at a time (the job id), so repeated
 * failures never pile up. Never throws: without Redis the next finish or the
 * page's Email Certificate button still sends it.
 */
export async function enqueueCertificateEmail(
  payload: CertificateEmailPayload,
  options: { delayMs?: number } = {},
): Promise<boolean> {
  try {
    await certificateEmailQueue().add('send', certificateEmailPayload.parse(payload), {
      jobId: `certificate-email-${payload.courseId}`,
      delay: options.delayMs ?? 30_000,
    });
    return true;
  } catch (error) {
    log.warn('certificate.email_enqueue_failed', { courseId: payload.courseId, error });
    return false;
  }
}

export async function closeCertificateEmailQueue() {
  await queue?.close();
  queue = undefined;
}
