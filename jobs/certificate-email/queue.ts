import { Queue } from 'bullmq';
import { z } from 'zod';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { producerRedis } from '~/utils/redis.server';

export const CERTIFICATE_EMAIL_QUEUE = 'certificate-email';

/** Send the certificate email of one finished course (only an id: no address, no content). */
export const certificateEmailPayload = z.object({ courseId: z.string().min(1).max(100) });
export type CertificateEmailPayload = z.infer<typeof certificateEmailPayload>;

let queue: Queue | undefined;

/**
 * The safety net of the certificate email, queued at finish before the email
 * is sent: its first try comes 30 s later and does nothing if the email went
 * out. Otherwise it is tried up to 12 times in all, with BullMQ's exponential
 * backoff doubling the pause from 30 s (30 s, 1 min, 2 min, ... 8.5 h):
 * 30 s x (2^11 - 1), about 17 hours after the first try. After that the member
 * can still send it from the certificate page.
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
 * Queues the job; one per course at a time (the job id), so repeated finishes
 * or failures never pile up. Never throws: without Redis the next finish or
 * the page's Email Certificate button still sends it.
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
