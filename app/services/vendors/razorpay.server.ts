import Razorpay from 'razorpay';
import { DEMO_RAZORPAY_PLANS, DEMO_RAZORPAY_WEBHOOK_SECRET } from '../../../mocks/razorpay';
import { PLAN_NAMES, type PaidPlanId } from '~/domain/plans';
import { paidPlanOfProviderPlan } from '~/models/provider-plans.server';
import { env } from '~/utils/env.server';
import {
  ProviderError,
  type BillingProvider,
  type PlanTerms,
  type ProviderStatus,
  type ProviderSubscription,
} from './billing-provider.server';

/**
 * Razorpay subscriptions over the official SDK. Plans are created by the settings page (ADR 0063);
 * until then their ids come from configuration (RAZORPAY_MONTHLY_PLAN_ID, RAZORPAY_YEARLY_PLAN_ID);
 * demo mode uses the mock's demo plans. Razorpay has no plan change for a running
 * subscription here: members who pay through it cancel and subscribe again. Its plans have no
 * trial: a trial is the subscription's `start_at`, the day of the first charge.
 */
const DEMO_PLAN_IDS: Record<PaidPlanId, string> = {
  monthly: Object.keys(DEMO_RAZORPAY_PLANS)[0]!,
  yearly: Object.keys(DEMO_RAZORPAY_PLANS)[1]!,
};

function razorpayPlanIds(): Partial<Record<PaidPlanId, string>> {
  const { RAZORPAY_MONTHLY_PLAN_ID, RAZORPAY_YEARLY_PLAN_ID, mocked } = env();
  if (mocked.razorpay) return DEMO_PLAN_IDS;
  return { monthly: RAZORPAY_MONTHLY_PLAN_ID, yearly: RAZORPAY_YEARLY_PLAN_ID };
}

/** The secret Razorpay signs webhooks with (a fixed demo secret while Razorpay is simulated). */
function razorpayWebhookSecret(): string | undefined {
  const { RAZORPAY_WEBHOOK_SECRET, mocked } = env();
  return mocked.razorpay ? DEMO_RAZORPAY_WEBHOOK_SECRET : RAZORPAY_WEBHOOK_SECRET;
}

/** Checks a webhook's X-Razorpay-Signature with the SDK's own helper. */
export function verifyRazorpayWebhook(body: string, signature: string): boolean {
  const secret = razorpayWebhookSecret();
  if (!secret || !signature) return false;
  try {
    return Razorpay.validateWebhookSignature(body, signature, secret);
  } catch {
    return false;
  }
}

let client: Razorpay | undefined;
let clientKey = '';

function razorpay(): Razorpay {
  const { RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, mocked } = env();
  const key = `${RAZORPAY_KEY_ID}|${mocked.razorpay}`;
  if (!client || key !== clientKey) {
    client = new Razorpay({
      key_id: mocked.razorpay ? 'rzp_test_demo' : (RAZORPAY_KEY_ID ?? ''),
      key_secret: mocked.razorpay ? 'demo-secret' : (RAZORPAY_KEY_SECRET ?? ''),
    });
    clientKey = key;
  }
  return client;
}

const STATUS: Record<string, ProviderStatus> = {
  created: 'pending',
  authenticated: 'pending',
  pending: 'active', // a charge failed and is being retried: still paid for now
  active: 'active',
  halted: 'suspended',
  cancelled: 'cancelled',
  completed: 'expired',
  expired: 'expired',
};

const fromSeconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    throw new ProviderError(`Razorpay ${what} failed${status ? ` with ${status}` : ''}`, status);
  }
}

/** The paid plan a Razorpay plan id stands for: a configured one, or one the settings page created. */
async function paidPlanOf(planId: string): Promise<PaidPlanId | null> {
  const ids = razorpayPlanIds();
  return (
    (Object.keys(ids) as PaidPlanId[]).find((id) => ids[id] === planId) ??
    (await paidPlanOfProviderPlan('razorpay', planId)) ??
    null
  );
}

interface RazorpayState {
  id: string;
  status: string;
  plan_id: string;
  current_start?: number | null;
  current_end?: number | null;
  charge_at?: number | null;
  start_at?: number | null;
  paid_count?: number;
}

async function normaliseRazorpay(subscription: RazorpayState): Promise<ProviderSubscription> {
  const plan = await paidPlanOf(subscription.plan_id);
  const paid = (subscription.paid_count ?? 0) > 0 && subscription.current_start;
  // Authorised with a start in the future: the member is in their trial, paid for by the mandate.
  const inTrial =
    subscription.status === 'authenticated' && (subscription.start_at ?? 0) * 1000 > Date.now();
  return {
    provider: 'razorpay',
    id: subscription.id,
    status: inTrial ? 'active' : (STATUS[subscription.status] ?? 'pending'),
    plan,
    startedAt: fromSeconds(subscription.start_at ?? subscription.current_start),
    nextBillingAt: fromSeconds(subscription.charge_at ?? subscription.current_end),
    // Razorpay bills its plan's price, which its subscription does not repeat: the receipt takes
    // the price (and currency) the subscription was taken at.
    lastPayment:
      paid && plan
        ? {
            key: `cycle-${subscription.current_start}`,
            amountCents: null,
            currency: null,
            paidAt: fromSeconds(subscription.current_start)!,
          }
        : null,
    raw: subscription,
  };
}

export const razorpayProvider: BillingProvider = {
  name: 'razorpay',

  configured() {
    const { RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, mocked } = env();
    return mocked.razorpay || Boolean(RAZORPAY_KEY_ID && RAZORPAY_KEY_SECRET);
  },

  fallbackPlanIds: razorpayPlanIds,

  async createPlan({ plan, amountCents, currency }: PlanTerms, brandName) {
    const created = await call('plan', () =>
      razorpay().plans.create({
        period: plan,
        interval: 1,
        item: {
          name: PLAN_NAMES[plan],
          amount: amountCents,
          currency,
          description: `${PLAN_NAMES[plan]} of ${brandName}`,
        },
      }),
    );
    return created.id;
  },

  async createSubscription({ plan, planId, trialDays, customer, reference, urls }) {
    const created = await call('create', () =>
      razorpay().subscriptions.create({
        plan_id: planId,
        // Renewals for ten years; the member cancels whenever they like.
        total_count: plan === 'monthly' ? 120 : 10,
        customer_notify: 1,
        // Razorpay's trial: the mandate is authorised now, the first charge waits until start_at.
        ...(trialDays > 0 ? { start_at: Math.floor(Date.now() / 1000) + trialDays * 86_400 } : {}),
        notes: {
          notes_key_1: `${customer.firstName} ${customer.lastName}, ${customer.email}, ${customer.address}, ${customer.postalCode}, ${customer.country}`,
          reference,
        },
      }),
    );
    // The simulated payment link is a page of this app: it opens at the address the member uses.
    const approvalUrl = env().mocked.razorpay
      ? new URL(new URL(created.short_url).pathname, urls.returnUrl).href
      : created.short_url;
    return { id: created.id, approvalUrl, raw: { ...created, short_url: approvalUrl } };
  },

  async fetchSubscription(id) {
    const found = await call('fetch', () => razorpay().subscriptions.fetch(id));
    return await normaliseRazorpay(found as unknown as RazorpayState);
  },

  async cancelSubscription(id) {
    await call('cancel', () => razorpay().subscriptions.cancel(id, false));
  },

  async changePlan() {
    throw new ProviderError('Razorpay subscriptions cannot change plan');
  },
};
