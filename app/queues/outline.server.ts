import { z } from 'zod';
import { defineQueue } from './factory.server';
import { retryForeverOptions } from './retry.server';

/**
 * Only the id travels: the job reads the member's request from the outline row. One job per
 * outline, and one per "Rewrite the outline" (its round, ADR 0032), so a rewrite never waits on
 * the finished job of the outline it rewrites.
 */
export const outlineQueue = defineQueue({
  name: 'outline',
  payload: z.object({
    outlineId: z.string().min(1).max(64),
    round: z.number().int().min(0).optional(),
  }),
  jobId: ({ outlineId, round }) =>
    round ? `outline-${outlineId}-rewrite-${round}` : `outline-${outlineId}`,
  defaultJobOptions: retryForeverOptions,
});
