import { readKnobs } from '../../../mocks/knobs';
import type { PaymentProvider } from '../../../db/schema';
import {
  addDemoWebhookDelivery,
  claimDemoWebhookDelivery,
  listDueDemoWebhookDeliveries,
  recordDemoWebhookDelivered,
  recordDemoWebhookFailed,
  type DemoWebhookDelivery,
} from '~/models/demo-webhook-deliveries.server';
import { withTimeout } from '~/utils/concurrency';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { receivePayPalWebhook, receiveRazorpayWebhook } from './webhooks.server';

/**
 * Demo mode only: how the simulated providers send their signed webhooks (ADR 0037).
 *
 * - To the app itself only: the webhook is handed to the same receiver `/webhooks/:provider`
 *   runs (signature checked, stored once, applied by the worker), in this process. No address
 *   is ever taken from a request, so a visitor's `Host` header cannot make the server post
 *   anywhere.
 * - Retried like real providers retry: each webhook is a row; a failed attempt (the receiver
 *   refused it or threw, e.g. with Redis away) is tried again after 10 s, then twice as long each
 *   time up to an hour apart, for a day. The page that caused it never fails because of it.
 */
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 60 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** How long the member's page waits for the first attempt before answering anyway. */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** An attempt a process took and did not finish (it died) is free again after this. */
const LEASE_MS = 60_000;
const RETRY_POLL_MS = 5_000;

/** The wait before the next attempt after `attempts` failed ones: 10 s, 20 s, 40 s... at most 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * Sends one webhook: kept first, then tried at once (the page waits at most a few seconds for
 * it). Never throws for a failed delivery: the provider's side already happened, and the retries
 * (or the reconciliation) bring the app in line. True when the app took it now.
 */
export async function sendDemoWebhook(
  provider: PaymentProvider,
  webhook: { body: string; headers: Record<string, string> },
  now = new Date(),
): Promise<boolean> {
  let id: number;
  try {
    id = await addDemoWebhookDelivery({ provider, ...webhook }, now);
  } catch (error) {
    // Not even kept (the database is overloaded): the hourly reconciliation is what is left.
    log.error('demo.webhook_lost', { provider, error });
    return false;
  }
  startDemoWebhookRetries();
  return attempt(id, now).catch((error: unknown) => {
    // Its row stays due once the lease ends, so a later round tries again.
    log.warn('demo.webhook_attempt_failed', { deliveryId: id, error });
    return false;
  });
}

/** Every delivery whose retry is due, one at a time; returns how many the app took. */
export async function retryDueDemoWebhooks(now = new Date()): Promise<number> {
  let delivered = 0;
  for (const id of await listDueDemoWebhookDeliveries(now, 50))
    if (await attempt(id, now)) delivered += 1;
  return delivered;
}

let retryTimer: NodeJS.Timeout | undefined;

/**
 * Retries due deliveries every few seconds in this process (demo mode only; once per process).
 * Started by the first webhook a process sends; a worker should start it at boot too, so that
 * deliveries of a web process that went away are not left waiting for the next demo payment.
 */
export function startDemoWebhookRetries() {
  if (retryTimer || !env().demo) return;
  let running = false;
  retryTimer = setInterval(() => {
    if (running) return;
    running = true;
    retryDueDemoWebhooks()
      .catch((error: unknown) => log.warn('demo.webhook_retry_failed', { error }))
      .finally(() => (running = false));
  }, RETRY_POLL_MS);
  retryTimer.unref();
}

async function attempt(id: number, now: Date): Promise<boolean> {
  const delivery = await claimDemoWebhookDelivery(id, now, LEASE_MS);
  if (!delivery) return false;
  const attempts = delivery.attempts + 1;
  const failure = await withTimeout(deliverToApp(delivery), ATTEMPT_TIMEOUT_MS).catch(
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  if (failure === null) {
    await recordDemoWebhookDelivered(id, attempts, new Date());
    return true;
  }
  const next = new Date(now.getTime() + retryDelayMs(attempts));
  const givingUp = next.getTime() - delivery.createdAt.getTime() > GIVE_UP_AFTER_MS;
  await recordDemoWebhookFailed(id, attempts, failure, givingUp ? null : next);
  log.warn(givingUp ? 'demo.webhook_given_up' : 'demo.webhook_failed', {
    deliveryId: id,
    provider: delivery.provider,
    attempts,
    error: failure,
    ...(givingUp ? {} : { nextAttemptAt: next.toISOString() }),
  });
  return false;
}

/** One attempt: null when the app took the webhook (a 2xx), else why not. */
async function deliverToApp(delivery: DemoWebhookDelivery): Promise<string | null> {
  if (readKnobs().webhookFail) return 'The app could not be reached (MOCK_WEBHOOK_FAIL)';
  const headers = new Headers({ 'Content-Type': 'application/json', ...delivery.headers });
  const result =
    delivery.provider === 'paypal'
      ? await receivePayPalWebhook(delivery.body, headers)
      : await receiveRazorpayWebhook(delivery.body, headers);
  return result.ok ? null : `${result.status} ${result.message}`;
}
