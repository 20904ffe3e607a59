import { createHmac, randomBytes } from 'node:crypto';
import { http, HttpResponse } from 'msw';
import { readKnobs } from './knobs';
import { changeMockRecords, listMockRecords, readMockRecord } from './state';

/**
 * Razorpay's plans and subscriptions API in its real wire format (plans: create, fetch;
 * subscriptions: create, fetch, cancel; HTTP Basic auth with the key id and secret), so the
 * official SDK runs unchanged in demo mode and tests. A plan it creates is remembered with its
 * price and currency, which the payment link shows and each payment charges; a subscription with
 * a future `start_at` (a trial) is authenticated on paying and charged from then. State lives in rows of the database
 * (`mocks/state.ts`), safe under every process's writes. `/demo/razorpay/pay/:id` stands in for the payment link; paying
 * (and the admin's simulated renewals, failures and cancellations) changes
 * the state here and delivers a webhook signed as Razorpay signs them.
 */
export const RAZORPAY_URL = 'https://api.razorpay.com';
export const DEMO_RAZORPAY_WEBHOOK_SECRET = 'demo-razorpay-webhook-secret';

export const DEMO_RAZORPAY_PLANS: Record<string, { months: number; name: string; amount: number }> =
  {
    plan_DemoMonthly0001: { months: 1, name: 'Monthly Plan', amount: 800 },
    plan_DemoYearly00001: { months: 12, name: 'Yearly Plan', amount: 8800 },
  };

/** A plan as Razorpay's API answers it. */
export interface MockRazorpayPlan {
  id: string;
  entity: 'plan';
  interval: number;
  period: 'daily' | 'weekly' | 'monthly' | 'yearly';
  item: {
    id: string;
    active: boolean;
    name: string;
    description: string | null;
    amount: number;
    unit_amount: number;
    currency: string;
    type: 'plan';
    unit: null;
    tax_inclusive: boolean;
    hsn_code: null;
    sac_code: null;
    tax_rate: null;
    tax_id: null;
    tax_group_id: null;
    created_at: number;
    updated_at: number;
  };
  notes: Record<string, string>;
  created_at: number;
}

const PLAN = 'plan';

/** What a plan charges and how often: a plan created through the API, else a demo plan. */
export async function mockRazorpayPlanPrice(planId: string) {
  const created = await readMockRecord<MockRazorpayPlan>('razorpay', PLAN, planId);
  if (created)
    return {
      name: created.item.name,
      amount: created.item.amount,
      currency: created.item.currency,
      months: created.period === 'yearly' ? 12 * created.interval : created.interval,
    };
  const demo = DEMO_RAZORPAY_PLANS[planId];
  return demo ? { ...demo, currency: 'USD' } : undefined;
}

/** The plans created through the API so far, oldest first (for tests). */
export const listMockRazorpayPlans = () => listMockRecords<MockRazorpayPlan>('razorpay', PLAN);

export interface MockRazorpaySubscription {
  id: string;
  entity: 'subscription';
  plan_id: string;
  customer_id: string | null;
  status:
    | 'created'
    | 'authenticated'
    | 'active'
    | 'pending'
    | 'halted'
    | 'cancelled'
    | 'completed'
    | 'expired';
  current_start: number | null;
  current_end: number | null;
  ended_at: number | null;
  quantity: number;
  notes: Record<string, string>;
  charge_at: number | null;
  start_at: number | null;
  end_at: number | null;
  auth_attempts: number;
  total_count: number;
  paid_count: number;
  customer_notify: boolean;
  created_at: number;
  expire_by: number | null;
  short_url: string;
  has_scheduled_changes: boolean;
  change_scheduled_at: number | null;
  source: string;
  payment_method: string | null;
  offer_id: string | null;
  remaining_count: number;
}

const SUBSCRIPTION = 'subscription';

/** Changes one subscription in one transaction; undefined when Razorpay has no such subscription. */
function changeSubscription<T>(id: string, run: (subscription: MockRazorpaySubscription) => T) {
  return changeMockRecords('razorpay', async (records) => {
    const subscription = await records.get<MockRazorpaySubscription>(SUBSCRIPTION, id);
    if (!subscription) return undefined;
    const result = run(subscription);
    await records.put(SUBSCRIPTION, id, subscription);
    return result;
  });
}

const now = () => Math.floor(Date.now() / 1000);
const randomId = (prefix: string) =>
  `${prefix}${randomBytes(10).toString('base64url').replace(/[-_]/g, 'X').slice(0, 14)}`;

function addMonths(seconds: number, months: number): number {
  const date = new Date(seconds * 1000);
  date.setUTCMonth(date.getUTCMonth() + months);
  return Math.floor(date.getTime() / 1000);
}

function error(status: number, description: string) {
  return HttpResponse.json(
    {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description,
        source: 'business',
        step: 'NA',
        reason: 'input_validation_failed',
        metadata: {},
      },
    },
    { status },
  );
}

const authorized = (request: Request) =>
  /^Basic \S+/.test(request.headers.get('Authorization') ?? '');

export const razorpayHandlers = [
  http.post(`${RAZORPAY_URL}/v1/plans`, async ({ request }) => {
    if (!authorized(request)) return error(401, 'The api key provided is invalid');
    if (readKnobs().razorpayFail === 'plan')
      return HttpResponse.json(
        {
          error: {
            code: 'SERVER_ERROR',
            description:
              'The server encountered an error. The incident has been reported to admins',
            source: 'NA',
            step: 'NA',
            reason: 'NA',
            metadata: {},
          },
        },
        { status: 500 },
      );
    const body = (await request.json()) as {
      period?: MockRazorpayPlan['period'];
      interval?: number;
      item?: { name?: string; amount?: number; currency?: string; description?: string };
      notes?: Record<string, string>;
    };
    const { item } = body;
    if (!body.period || !['daily', 'weekly', 'monthly', 'yearly'].includes(body.period))
      return error(400, 'The period field is invalid.');
    if (!body.interval || !item?.name || !item.currency || !Number.isInteger(item.amount))
      return error(400, 'interval, item.name, item.amount and item.currency are required');
    if (item.amount! < 100) return error(400, 'The amount must be atleast INR 1.00');
    const at = now();
    const plan: MockRazorpayPlan = {
      id: randomId('plan_'),
      entity: 'plan',
      interval: body.interval,
      period: body.period,
      item: {
        id: randomId('item_'),
        active: true,
        name: item.name,
        description: item.description ?? null,
        amount: item.amount!,
        unit_amount: item.amount!,
        currency: item.currency,
        type: 'plan',
        unit: null,
        tax_inclusive: false,
        hsn_code: null,
        sac_code: null,
        tax_rate: null,
        tax_id: null,
        tax_group_id: null,
        created_at: at,
        updated_at: at,
      },
      notes: body.notes ?? {},
      created_at: at,
    };
    await changeMockRecords('razorpay', (records) => records.put(PLAN, plan.id, plan));
    return HttpResponse.json(plan);
  }),

  http.get(`${RAZORPAY_URL}/v1/plans/:id`, async ({ request, params }) => {
    if (!authorized(request)) return error(401, 'The api key provided is invalid');
    const plan = await readMockRecord<MockRazorpayPlan>('razorpay', PLAN, String(params.id));
    return plan ? HttpResponse.json(plan) : error(400, 'The id provided does not exist');
  }),

  http.post(`${RAZORPAY_URL}/v1/subscriptions`, async ({ request }) => {
    if (!authorized(request)) return error(401, 'The api key provided is invalid');
    const body = (await request.json()) as {
      plan_id?: string;
      total_count?: number;
      start_at?: number;
      notes?: Record<string, string>;
      customer_notify?: boolean | number;
    };
    if (!body.plan_id || !body.total_count)
      return error(400, 'plan_id and total_count are required');
    if (!(await mockRazorpayPlanPrice(body.plan_id)))
      return error(400, 'The id provided does not exist');
    if (body.start_at !== undefined && body.start_at <= now())
      return error(400, 'start_at cannot be lesser than the current time');
    const id = randomId('sub_');
    const subscription: MockRazorpaySubscription = {
      id,
      entity: 'subscription',
      plan_id: body.plan_id,
      customer_id: null,
      status: 'created',
      current_start: null,
      current_end: null,
      ended_at: null,
      quantity: 1,
      notes: body.notes ?? {},
      charge_at: body.start_at ?? null,
      start_at: body.start_at ?? null,
      end_at: null,
      auth_attempts: 0,
      total_count: body.total_count,
      paid_count: 0,
      customer_notify: Boolean(body.customer_notify ?? true),
      created_at: now(),
      expire_by: null,
      // The payment link: the product's own demo page stands in for Razorpay's.
      short_url: new URL(
        `/demo/razorpay/pay/${id}`,
        process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`,
      ).href,
      has_scheduled_changes: false,
      change_scheduled_at: null,
      source: 'api',
      payment_method: null,
      offer_id: null,
      remaining_count: body.total_count,
    };
    await changeMockRecords('razorpay', (records) => records.put(SUBSCRIPTION, id, subscription));
    return HttpResponse.json(subscription);
  }),

  http.get(`${RAZORPAY_URL}/v1/subscriptions/:id`, async ({ request, params }) => {
    if (!authorized(request)) return error(401, 'The api key provided is invalid');
    const subscription = await getMockRazorpaySubscription(String(params.id));
    if (!subscription) return error(400, 'The id provided does not exist');
    return HttpResponse.json(subscription);
  }),

  http.post(`${RAZORPAY_URL}/v1/subscriptions/:id/cancel`, async ({ request, params }) => {
    if (!authorized(request)) return error(401, 'The api key provided is invalid');
    const result =
      (await changeSubscription(String(params.id), (subscription) => {
        if (['cancelled', 'completed', 'expired'].includes(subscription.status))
          return 'Subscription is not cancellable in cancelled status.';
        subscription.status = 'cancelled';
        subscription.ended_at = now();
        return subscription;
      })) ?? 'The id provided does not exist';
    return typeof result === 'string' ? error(400, result) : HttpResponse.json(result);
  }),
];

export async function getMockRazorpaySubscription(
  id: string,
): Promise<MockRazorpaySubscription | undefined> {
  return readMockRecord<MockRazorpaySubscription>('razorpay', SUBSCRIPTION, id);
}

export type RazorpaySimulation = 'pay' | 'renew' | 'fail' | 'halt' | 'cancel';

const EVENTS: Record<RazorpaySimulation, { event: string; payment: boolean }> = {
  pay: { event: 'subscription.activated', payment: true },
  renew: { event: 'subscription.charged', payment: true },
  fail: { event: 'subscription.pending', payment: false },
  halt: { event: 'subscription.halted', payment: false },
  cancel: { event: 'subscription.cancelled', payment: false },
};

/**
 * What happens at Razorpay: the member pays the link, a renewal is charged, a
 * charge fails (the subscription goes pending, then halted) or it is
 * cancelled. Changes the mock's state and returns the webhook Razorpay would
 * send: its body, its event id and its signature.
 */
export async function simulateRazorpay(id: string, what: RazorpaySimulation) {
  const before = await getMockRazorpaySubscription(id);
  const price = before && (await mockRazorpayPlanPrice(before.plan_id));
  const months = price?.months ?? 1;
  // Paying the link of a subscription that starts later (a trial) authorises the mandate only.
  const trial = what === 'pay' && (before?.start_at ?? 0) > now();
  const subscription = await changeSubscription(id, (found) => {
    const at = now();
    if (trial) {
      Object.assign(found, {
        status: 'authenticated',
        customer_id: found.customer_id ?? randomId('cust_'),
        payment_method: 'card',
        auth_attempts: 0,
      });
    } else if (what === 'pay' || what === 'renew') {
      const start = what === 'pay' ? at : (found.current_end ?? found.start_at ?? at);
      Object.assign(found, {
        status: 'active',
        customer_id: found.customer_id ?? randomId('cust_'),
        payment_method: 'card',
        current_start: start,
        current_end: addMonths(start, months),
        charge_at: addMonths(start, months),
        start_at: found.start_at ?? start,
        paid_count: found.paid_count + 1,
        remaining_count: found.total_count - found.paid_count - 1,
        auth_attempts: 0,
      });
    } else if (what === 'fail') {
      Object.assign(found, { status: 'pending', auth_attempts: found.auth_attempts + 1 });
    } else if (what === 'halt') {
      found.status = 'halted';
    } else {
      Object.assign(found, { status: 'cancelled', ended_at: at });
    }
    return found;
  });
  if (!subscription) return undefined;
  const { event, payment } = trial
    ? { event: 'subscription.authenticated', payment: false }
    : EVENTS[what];
  const body = JSON.stringify({
    entity: 'event',
    account_id: 'acc_DemoAccount0001',
    event,
    contains: payment ? ['subscription', 'payment'] : ['subscription'],
    payload: {
      subscription: { entity: subscription },
      ...(payment
        ? {
            payment: {
              entity: {
                id: randomId('pay_'),
                entity: 'payment',
                amount: price?.amount ?? 800,
                currency: price?.currency ?? 'USD',
                status: 'captured',
                method: 'card',
                created_at: now(),
              },
            },
          }
        : {}),
    },
    created_at: now(),
  });
  return {
    body,
    eventId: randomId('evt_'),
    signature: signRazorpayWebhook(
      body,
      process.env.RAZORPAY_WEBHOOK_SECRET || DEMO_RAZORPAY_WEBHOOK_SECRET,
    ),
  };
}

/** Razorpay's webhook signature: HMAC-SHA256 of the raw body with the webhook secret, in hex. */
function signRazorpayWebhook(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
