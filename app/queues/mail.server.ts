import { z } from 'zod';
import { defineQueue } from './factory.server';
import { retryForeverOptions } from './retry.server';

/** One job per queued mail row (its id is random, never reused). */
export const mailQueueJobs = defineQueue({
  name: 'mail',
  payload: z.object({ mailId: z.string().min(1).max(64) }),
  jobId: ({ mailId }) => `mail-${mailId}`,
  defaultJobOptions: retryForeverOptions,
});
