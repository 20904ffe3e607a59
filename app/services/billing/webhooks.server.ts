import { createHash } from 'node:crypto';
import type { PaymentProvider } from '../../../db/schema';
import { fail, ok, type Result } from '~/domain/result';
import { getPaymentEvent, storeWebhookEvent } from '~/models/payment-events.server';
import { getSubscriptionByProviderId } from '~/models/subscriptions.server';
import { getUserById } from '~/models/users.server';
import { billingEventQueue } from '~/queues/billing-event.server';
import { log } from '~/utils/logger.server';
import { recordWebhook } from '~/utils/metrics.server';
import { syncSubscription, type SyncOutcome } from './reconciliation.server';
import { paymentFailedEmail } from '../email-templates.server';
import { verifyPayPalWebhook } from '../vendors/paypal.server';
import { verifyRazorpayWebhook } from '../vendors/razorpay.server';
import { sendEmail } from '../vendors/mailer.server';

/**
 * Provider webhooks: verified before anything is stored, stored raw once (the
 * provider's event id is unique), then applied by a job that re-fetches the
 * subscription, so replays, duplicates and events out of order all end in the
 * provider's true state.
 */
const FAILED_PAYMENT_EVENTS = new Set([
  'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
  'subscription.pending',
  'payment.failed',
]);

interface ParsedEvent {
  /** The key the event is stored under once: always from what the signature covers. */
  eventId: string;
  /** A second key, from an unsigned header: a delivery matching either is a duplicate. */
  headerEventId?: string | null;
  kind: string;
  subscriptionId: string | null;
  payload: unknown;
}

interface RazorpayEvent {
  event?: unknown;
  created_at?: unknown;
  payload?: Record<string, { entity?: { id?: unknown; subscription_id?: string } } | undefined>;
}

/** The job id holds the key: at most this long, and no ':' (BullMQ's separator). */
const MAX_EVENT_KEY_LENGTH = 200;

/**
 * What makes one Razorpay event itself, from the signed body: its name, the ids of the entities
 * it carries (subscription, payment, ...) and its creation time. Razorpay redelivers an event
 * with the same body; the X-Razorpay-Event-Id header is not signed, so anyone holding a captured
 * body could make a "new" event by changing it (issue 31: 13 deliveries, 13 emails).
 */
function razorpayEventKey(event: RazorpayEvent, body: string): string {
  const entityIds = Object.keys(event.payload ?? {})
    .sort()
    .map((name) => event.payload?.[name]?.entity?.id)
    .filter((id): id is string => typeof id === 'string' && id.length > 0);
  const key = `${String(event.event)}|${entityIds.join(',')}|${String(event.created_at)}`;
  const named =
    typeof event.created_at === 'number' &&
    entityIds.length > 0 &&
    key.length <= MAX_EVENT_KEY_LENGTH &&
    !key.includes(':');
  if (named) return key;
  // Without those fields (or too long for a job id), the whole signed body names the event.
  return `sha256-${createHash('sha256').update(body).digest('hex')}`;
}

function parseRazorpay(body: string, eventIdHeader: string | null): ParsedEvent | null {
  try {
    const event = JSON.parse(body) as RazorpayEvent;
    if (typeof event.event !== 'string') return null;
    return {
      eventId: razorpayEventKey(event, body),
      headerEventId: eventIdHeader ? eventIdHeader.slice(0, MAX_EVENT_KEY_LENGTH) : null,
      kind: event.event,
      subscriptionId:
        (event.payload?.subscription?.entity?.id as string | undefined) ??
        event.payload?.payment?.entity?.subscription_id ??
        null,
      payload: event,
    };
  } catch {
    return null;
  }
}

function parsePayPal(body: string): ParsedEvent | null {
  try {
    const event = JSON.parse(body) as {
      id?: string;
      event_type?: string;
      resource?: { id?: string; billing_agreement_id?: string };
    };
    if (!event.id || !event.event_type) return null;
    return {
      eventId: event.id,
      kind: event.event_type,
      subscriptionId: event.resource?.billing_agreement_id ?? event.resource?.id ?? null,
      payload: event,
    };
  } catch {
    return null;
  }
}

async function accept(
  provider: PaymentProvider,
  event: ParsedEvent,
): Promise<Result<{ stored: boolean }>> {
  const row = event.subscriptionId
    ? await getSubscriptionByProviderId(provider, event.subscriptionId)
    : undefined;
  const eventRowId = await storeWebhookEvent({
    provider,
    providerEventId: event.eventId,
    headerEventId: event.headerEventId ?? null,
    kind: event.kind,
    payload: event.payload,
    subscriptionId: row?.id ?? null,
  });
  // A redelivery: stored and queued the first time already; the job name holds back doubles.
  if (eventRowId === null) return ok({ stored: false });
  await billingEventQueue.add({ eventRowId, provider, providerEventId: event.eventId });
  log.info('billing.webhook_received', { provider, kind: event.kind, eventRowId });
  return ok({ stored: true });
}

type Receive = (body: string, headers: Headers) => Promise<Result<{ stored: boolean }>>;

/**
 * A provider's webhooks counted by outcome for the metrics (ADR 0056): stored, duplicate (an
 * event already stored), refused (a bad signature or body) or error (we could not take it now).
 */
function counted(provider: PaymentProvider, receive: Receive): Receive {
  return async (body, headers) => {
    const result = await receive(body, headers);
    recordWebhook(
      provider,
      result.ok
        ? result.value.stored
          ? 'stored'
          : 'duplicate'
        : result.status >= 500
          ? 'error'
          : 'refused',
    );
    return result;
  };
}

export const receiveRazorpayWebhook = counted(
  'razorpay',
  async function receiveRazorpay(
    body: string,
    headers: Headers,
  ): Promise<Result<{ stored: boolean }>> {
    if (!verifyRazorpayWebhook(body, headers.get('x-razorpay-signature') ?? ''))
      return fail('Invalid signature', 400);
    const event = parseRazorpay(body, headers.get('x-razorpay-event-id'));
    if (!event) return fail('Not a Razorpay event', 400);
    return accept('razorpay', event);
  },
);

export const receivePayPalWebhook = counted(
  'paypal',
  async function receivePayPal(
    body: string,
    headers: Headers,
  ): Promise<Result<{ stored: boolean }>> {
    let genuine: boolean;
    try {
      genuine = await verifyPayPalWebhook(headers, body);
    } catch (error) {
      // PayPal could not be asked: answer 5xx so that PayPal delivers it again later.
      log.warn('billing.webhook_verify_failed', { error });
      return fail('Could not verify the webhook now', 503);
    }
    if (!genuine) return fail('Invalid signature', 400);
    const event = parsePayPal(body);
    if (!event) return fail('Not a PayPal event', 400);
    return accept('paypal', event);
  },
);

/** The job of one stored event: bring the subscription to the provider's state; tell about failed charges. */
export async function applyBillingEvent(eventRowId: number): Promise<SyncOutcome | 'gone'> {
  const event = await getPaymentEvent(eventRowId);
  if (!event) return 'gone';
  const payload = event.payload as Record<string, unknown>;
  const parsed =
    event.provider === 'paypal'
      ? parsePayPal(JSON.stringify(payload))
      : parseRazorpay(JSON.stringify(payload), null);
  if (!parsed?.subscriptionId) return 'unknown';
  const outcome = await syncSubscription(event.provider, parsed.subscriptionId);
  if (FAILED_PAYMENT_EVENTS.has(event.kind))
    await tellAboutFailedPayment(event.provider, parsed.subscriptionId);
  log.info('billing.webhook_applied', { eventRowId, kind: event.kind, outcome });
  return outcome;
}

async function tellAboutFailedPayment(provider: PaymentProvider, providerSubscriptionId: string) {
  const row = await getSubscriptionByProviderId(provider, providerSubscriptionId);
  if (!row) return;
  const member = await getUserById(row.userId);
  if (!member) return;
  const sent = await sendEmail({
    to: member.email,
    ...(await paymentFailedEmail(member.name, provider === 'paypal' ? 'PayPal' : 'Razorpay')),
  });
  // Throwing retries the job, which re-syncs (a no-op) and tries the email again.
  if (!sent) throw new Error('The payment-failed email could not be sent');
}
