import type { Job } from 'bullmq';
import { mailQueueJobs } from '~/queues/mail.server';
import { deliverQueuedMail } from '~/services/mail.server';

export async function processMail(job: Job) {
  const { mailId } = mailQueueJobs.payload.parse(job.data);
  return { mailId, outcome: await deliverQueuedMail(mailId) };
}
