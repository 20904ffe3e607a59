import { z } from 'zod';
import { defineQueue } from './factory.server';
import { retryForeverOptions } from './retry.server';

/** Only the id travels: the job reads the member's request from the outline row. One job per outline. */
export const outlineQueue = defineQueue({
  name: 'outline',
  payload: z.object({ outlineId: z.string().min(1).max(64) }),
  jobId: ({ outlineId }) => `outline-${outlineId}`,
  defaultJobOptions: retryForeverOptions,
});
