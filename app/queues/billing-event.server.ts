import { z } from 'zod';
import { defineQueue } from './factory.server';
import { retryForeverOptions } from './retry.server';

/**
 * One verified provider webhook to apply: the job re-fetches the subscription
 * from the provider, so it may run late, twice or out of order and still end
 * in the provider's true state. Named by the provider's own event id.
 */
export const billingEventQueue = defineQueue({
  name: 'billing-event',
  payload: z.object({
    eventRowId: z.number().int().positive(),
    provider: z.enum(['paypal', 'razorpay']),
    providerEventId: z.string().min(1).max(200),
  }),
  jobId: ({ provider, providerEventId }) => `billing-event-${provider}-${providerEventId}`,
  defaultJobOptions: retryForeverOptions,
});
