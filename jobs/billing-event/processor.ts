import type { Job } from 'bullmq';
import { billingEventQueue } from '~/queues/billing-event.server';
import { applyBillingEvent } from '~/services/billing/webhooks.server';

/** Applies one stored provider webhook; a provider error throws, so BullMQ retries it. */
export async function processBillingEvent(job: Job) {
  const { eventRowId } = billingEventQueue.payload.parse(job.data);
  return { outcome: await applyBillingEvent(eventRowId) };
}
