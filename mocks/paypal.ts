import { createHash, createHmac, randomBytes } from 'node:crypto';
import { http, HttpResponse } from 'msw';
import { readKnobs } from './knobs';
import { changeMockRecords, listMockRecords, readMockRecord, type MockRecords } from './state';

/**
 * PayPal's REST API for subscriptions in its real wire format (OAuth token, catalog products,
 * billing plans, subscriptions: create, get, cancel, revise), so the official SDK runs unchanged
 * in demo mode and tests. A billing plan it creates is remembered with its price, currency and
 * trial, so the approval page shows them and payments charge them. Its state is rows of the database (`mocks/state.ts`), so every web
 * and worker process sees and safely changes the same subscriptions; the demo approval page
 * (`/demo/paypal/approve`) stands in for PayPal's own and calls
 * `approveMockPayPal` or `mockPayPalCancelUrl`.
 *
 * MOCK_PAYPAL_FAIL (knob): 'create', 'get', 'cancel' or 'plan' answers 500 to that call.
 */
export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com';
export const PAYPAL_LIVE_URL = 'https://api-m.paypal.com';

/** The plans demo mode offers when no PayPal plan ids are configured. */
export const DEMO_PAYPAL_PLANS: Record<string, { value: string; months: number; name: string }> = {
  'P-DEMO-MONTHLY': { value: '8.00', months: 1, name: 'Monthly Plan' },
  'P-DEMO-YEARLY': { value: '88.00', months: 12, name: 'Yearly Plan' },
};

interface MockSubscription {
  id: string;
  plan_id: string;
  status: 'APPROVAL_PENDING' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';
  custom_id?: string;
  subscriber: Record<string, unknown>;
  start_time: string;
  create_time: string;
  update_time: string;
  status_update_time: string;
  billing_info?: {
    last_payment?: { amount: { currency_code: string; value: string }; time: string };
    next_billing_time?: string;
    failed_payments_count: number;
    outstanding_balance: { currency_code: string; value: string };
  };
}

/** A pending approval: a new subscription, or a revision to another plan. */
interface MockApproval {
  token: string;
  subscriptionId: string;
  newPlanId?: string;
  returnUrl: string;
  cancelUrl: string;
  /** The seller PayPal's approval page names: the request's application_context.brand_name. */
  brandName?: string;
}

/** A billing plan as PayPal's API answers it (the fields this product sends, and PayPal's own). */
export interface MockPayPalPlan {
  id: string;
  product_id: string;
  name: string;
  status: 'CREATED' | 'ACTIVE' | 'INACTIVE';
  description?: string;
  usage_type: 'LICENSED';
  billing_cycles: {
    pricing_scheme?: {
      version: number;
      fixed_price: { currency_code: string; value: string };
      create_time: string;
      update_time: string;
    };
    frequency: { interval_unit: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'; interval_count: number };
    tenure_type: 'REGULAR' | 'TRIAL';
    sequence: number;
    total_cycles: number;
  }[];
  payment_preferences: Record<string, unknown>;
  quantity_supported: boolean;
  create_time: string;
  update_time: string;
}

const SUBSCRIPTION = 'subscription';
const APPROVAL = 'approval';
const PLAN = 'plan';
const PRODUCT = 'product';
const readSubscription = (id: string) =>
  readMockRecord<MockSubscription>('paypal', SUBSCRIPTION, id);
const readApproval = (token: string) => readMockRecord<MockApproval>('paypal', APPROVAL, token);
const change = <T>(run: (records: MockRecords) => Promise<T>) => changeMockRecords('paypal', run);

/** Changes one subscription in one transaction; undefined when PayPal has no such subscription. */
function changeSubscription<T>(id: string, run: (subscription: MockSubscription) => T) {
  return change(async (records) => {
    const subscription = await records.get<MockSubscription>(SUBSCRIPTION, id);
    if (!subscription) return undefined;
    const result = run(subscription);
    await records.put(SUBSCRIPTION, id, subscription);
    return result;
  });
}

const id = (prefix: string, length = 13) =>
  `${prefix}${randomBytes(length).toString('hex').toUpperCase().slice(0, length)}`;

interface PlanPrice {
  value: string;
  currency: string;
  months: number;
  name: string;
  trialDays: number;
}

/**
 * What a plan charges: a plan created through the API as created, else a demo plan. `read` is the
 * transaction's when called inside one.
 */
async function planOf(
  planId: string,
  read: (kind: string, id: string) => Promise<MockPayPalPlan | undefined> = (kind, id) =>
    readMockRecord<MockPayPalPlan>('paypal', kind, id),
): Promise<PlanPrice> {
  const created = await read(PLAN, planId);
  const regular = created?.billing_cycles.find((cycle) => cycle.tenure_type === 'REGULAR');
  if (created && regular?.pricing_scheme) {
    const trial = created.billing_cycles.find((cycle) => cycle.tenure_type === 'TRIAL');
    return {
      value: regular.pricing_scheme.fixed_price.value,
      currency: regular.pricing_scheme.fixed_price.currency_code,
      months: regular.frequency.interval_unit === 'YEAR' ? 12 : regular.frequency.interval_count,
      name: created.name,
      trialDays:
        trial?.frequency.interval_unit === 'DAY'
          ? trial.frequency.interval_count * trial.total_cycles
          : 0,
    };
  }
  const demo = DEMO_PAYPAL_PLANS[planId] ?? { value: '8.00', months: 1, name: planId };
  return { ...demo, currency: 'USD', trialDays: 0 };
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3_600_000);
}

function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

function error(status: number, name: string, message: string) {
  return HttpResponse.json(
    { name, message, debug_id: id('', 12).toLowerCase(), details: [] },
    { status },
  );
}

const authorized = (request: Request) =>
  /^Bearer \S+/.test(request.headers.get('Authorization') ?? '');

function approvalLink(returnUrl: string, token: string): string {
  // The page that stands in for PayPal's approval lives on the product's own site.
  return new URL(`/demo/paypal/approve?ba_token=${token}`, returnUrl).href;
}

function withLinks(baseUrl: string, subscription: MockSubscription, approveHref?: string) {
  const self = `${baseUrl}/v1/billing/subscriptions/${subscription.id}`;
  return {
    ...subscription,
    links: [
      ...(approveHref ? [{ href: approveHref, rel: 'approve', method: 'GET' }] : []),
      { href: self, rel: 'edit', method: 'PATCH' },
      { href: self, rel: 'self', method: 'GET' },
    ],
  };
}

/** Catalog products and billing plans: what the settings page creates for a new price. */
function catalogHandlersAt(baseUrl: string) {
  return [
    http.post(`${baseUrl}/v1/catalogs/products`, async ({ request }) => {
      if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
      const body = (await request.json()) as Record<string, unknown>;
      if (typeof body.name !== 'string' || typeof body.type !== 'string')
        return error(400, 'INVALID_REQUEST', 'name and type are required');
      const now = new Date().toISOString();
      const product = { id: id('PROD-', 17), ...body, create_time: now, update_time: now };
      await change((records) => records.put(PRODUCT, product.id, product));
      return HttpResponse.json(
        {
          ...product,
          links: [
            { href: `${baseUrl}/v1/catalogs/products/${product.id}`, rel: 'self', method: 'GET' },
          ],
        },
        { status: 201 },
      );
    }),

    http.post(`${baseUrl}/v1/billing/plans`, async ({ request }) => {
      if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
      if (readKnobs().paypalFail === 'plan')
        return error(500, 'INTERNAL_SERVER_ERROR', 'An internal server error occurred.');
      const body = (await request.json()) as Partial<MockPayPalPlan>;
      const product = body.product_id && (await readMockRecord('paypal', PRODUCT, body.product_id));
      const cycles = body.billing_cycles ?? [];
      const regular = cycles.filter((cycle) => cycle.tenure_type === 'REGULAR');
      if (!product || !body.name || regular.length !== 1 || !regular[0]!.pricing_scheme)
        return error(
          422,
          'UNPROCESSABLE_ENTITY',
          'product_id of an existing product, name and one priced REGULAR billing cycle are required',
        );
      const now = new Date().toISOString();
      const plan: MockPayPalPlan = {
        id: id('P-', 24),
        product_id: body.product_id!,
        name: body.name,
        status: body.status ?? 'ACTIVE',
        description: body.description,
        usage_type: 'LICENSED',
        billing_cycles: cycles.map((cycle) => ({
          ...cycle,
          ...(cycle.pricing_scheme
            ? {
                pricing_scheme: {
                  ...cycle.pricing_scheme,
                  version: 1,
                  create_time: now,
                  update_time: now,
                },
              }
            : {}),
        })),
        payment_preferences: {
          service_type: 'PREPAID',
          auto_bill_outstanding: true,
          setup_fee_failure_action: 'CONTINUE',
          payment_failure_threshold: 0,
          ...body.payment_preferences,
        },
        quantity_supported: false,
        create_time: now,
        update_time: now,
      };
      await change((records) => records.put(PLAN, plan.id, plan));
      return HttpResponse.json(
        {
          ...plan,
          links: [
            { href: `${baseUrl}/v1/billing/plans/${plan.id}`, rel: 'self', method: 'GET' },
            { href: `${baseUrl}/v1/billing/plans/${plan.id}`, rel: 'edit', method: 'PATCH' },
          ],
        },
        { status: 201 },
      );
    }),

    http.get(`${baseUrl}/v1/billing/plans/:id`, async ({ request, params }) => {
      if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
      const plan = await readMockRecord<MockPayPalPlan>('paypal', PLAN, String(params.id));
      if (!plan) return error(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
      return HttpResponse.json(plan);
    }),
  ];
}

/** The billing plans created through the API so far, oldest first (for tests). */
export const listMockPayPalPlans = () => listMockRecords<MockPayPalPlan>('paypal', PLAN);

function handlersAt(baseUrl: string) {
  const base = `${baseUrl}/v1/billing/subscriptions`;
  return [
    ...catalogHandlersAt(baseUrl),
    http.post(`${baseUrl}/v1/oauth2/token`, ({ request }) => {
      if (!/^Basic \S+/.test(request.headers.get('Authorization') ?? ''))
        return HttpResponse.json(
          { error: 'invalid_client', error_description: 'Client Authentication failed' },
          { status: 401 },
        );
      return HttpResponse.json({
        scope: 'https://uri.paypal.com/services/subscriptions',
        access_token: `A21AA${randomBytes(24).toString('hex')}`,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: 32400,
        nonce: `${new Date().toISOString()}${randomBytes(8).toString('hex')}`,
      });
    }),

    http.post(base, async ({ request }) => {
      if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
      if (readKnobs().paypalFail === 'create')
        return error(500, 'INTERNAL_SERVER_ERROR', 'An internal server error occurred.');
      const body = (await request.json()) as {
        plan_id?: string;
        custom_id?: string;
        subscriber?: Record<string, unknown>;
        application_context?: { return_url?: string; cancel_url?: string; brand_name?: string };
      };
      const returnUrl = body.application_context?.return_url;
      const cancelUrl = body.application_context?.cancel_url;
      if (!body.plan_id || !returnUrl || !cancelUrl)
        return error(
          422,
          'UNPROCESSABLE_ENTITY',
          'plan_id, return_url and cancel_url are required',
        );
      const now = new Date().toISOString();
      const subscription: MockSubscription = {
        id: id('I-', 12),
        plan_id: body.plan_id,
        status: 'APPROVAL_PENDING',
        custom_id: body.custom_id,
        subscriber: body.subscriber ?? {},
        start_time: now,
        create_time: now,
        update_time: now,
        status_update_time: now,
      };
      const token = id('BA-', 17);
      await change(async (records) => {
        await records.put(SUBSCRIPTION, subscription.id, subscription);
        await records.put<MockApproval>(APPROVAL, token, {
          token,
          subscriptionId: subscription.id,
          returnUrl,
          cancelUrl,
          brandName: body.application_context?.brand_name,
        });
      });
      return HttpResponse.json(withLinks(baseUrl, subscription, approvalLink(returnUrl, token)), {
        status: 201,
      });
    }),

    http.get(`${base}/:id`, async ({ request, params }) => {
      if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
      if (readKnobs().paypalFail === 'get')
        return error(500, 'INTERNAL_SERVER_ERROR', 'An internal server error occurred.');
      const subscription = await readSubscription(String(params.id));
      if (!subscription)
        return error(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
      return HttpResponse.json(withLinks(baseUrl, subscription));
    }),

    http.post(`${base}/:id/cancel`, async ({ request, params }) => {
      if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
      if (readKnobs().paypalFail === 'cancel')
        return error(500, 'INTERNAL_SERVER_ERROR', 'An internal server error occurred.');
      const found = await changeSubscription(String(params.id), (subscription) => {
        if (subscription.status === 'CANCELLED' || subscription.status === 'EXPIRED')
          return 'not-active';
        const now = new Date().toISOString();
        Object.assign(subscription, {
          status: 'CANCELLED',
          status_update_time: now,
          update_time: now,
        });
        return 'cancelled';
      });
      if (found === undefined)
        return error(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
      if (found === 'not-active')
        return error(422, 'UNPROCESSABLE_ENTITY', 'SUBSCRIPTION_STATUS_INVALID');
      return new HttpResponse(null, { status: 204 });
    }),

    http.post(`${base}/:id/revise`, async ({ request, params }) => {
      if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
      const body = (await request.json()) as {
        plan_id?: string;
        application_context?: { return_url?: string; cancel_url?: string; brand_name?: string };
      };
      const returnUrl = body.application_context?.return_url;
      const cancelUrl = body.application_context?.cancel_url;
      const subscription = await readSubscription(String(params.id));
      if (!subscription)
        return error(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
      if (!body.plan_id || !returnUrl || !cancelUrl)
        return error(
          422,
          'UNPROCESSABLE_ENTITY',
          'plan_id, return_url and cancel_url are required',
        );
      const token = id('BA-', 17);
      await change((records) =>
        records.put<MockApproval>(APPROVAL, token, {
          token,
          subscriptionId: subscription.id,
          newPlanId: body.plan_id,
          returnUrl,
          cancelUrl,
          brandName: body.application_context?.brand_name,
        }),
      );
      return HttpResponse.json({
        plan_id: body.plan_id,
        effective_time: subscription.billing_info?.next_billing_time ?? new Date().toISOString(),
        links: [{ href: approvalLink(returnUrl, token), rel: 'approve', method: 'GET' }],
      });
    }),
  ];
}

/** The webhook id demo mode uses when PAYPAL_WEBHOOK_ID is not set. */
export const DEMO_PAYPAL_WEBHOOK_ID = 'WH-DEMO-WEBHOOK';
// What the mock signs its own webhooks with (demo only); the app verifies through the mocked API.
const SIGNING_KEY = 'demo-paypal-transmission-key';

function transmissionSignature(
  transmissionId: string,
  transmissionTime: string,
  webhookId: string,
  event: unknown,
): string {
  const digest = createHash('sha256').update(JSON.stringify(event)).digest('hex');
  return createHmac('sha256', SIGNING_KEY)
    .update(`${transmissionId}|${transmissionTime}|${webhookId}|${digest}`)
    .digest('base64');
}

function verifyHandler(baseUrl: string) {
  return http.post(`${baseUrl}/v1/notifications/verify-webhook-signature`, async ({ request }) => {
    if (!authorized(request)) return error(401, 'AUTHENTICATION_FAILURE', 'Unauthorized');
    const body = (await request.json()) as {
      transmission_id?: string;
      transmission_time?: string;
      transmission_sig?: string;
      webhook_id?: string;
      webhook_event?: unknown;
    };
    const expected = transmissionSignature(
      body.transmission_id ?? '',
      body.transmission_time ?? '',
      body.webhook_id ?? '',
      body.webhook_event,
    );
    return HttpResponse.json({
      verification_status: body.transmission_sig === expected ? 'SUCCESS' : 'FAILURE',
    });
  });
}

export const paypalHandlers = [
  ...handlersAt(PAYPAL_SANDBOX_URL),
  ...handlersAt(PAYPAL_LIVE_URL),
  verifyHandler(PAYPAL_SANDBOX_URL),
  verifyHandler(PAYPAL_LIVE_URL),
];

export type PayPalSimulation = 'activated' | 'renew' | 'fail' | 'halt' | 'cancel';

const EVENT_TYPES: Record<PayPalSimulation, string> = {
  activated: 'BILLING.SUBSCRIPTION.ACTIVATED',
  renew: 'PAYMENT.SALE.COMPLETED',
  fail: 'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
  halt: 'BILLING.SUBSCRIPTION.SUSPENDED',
  cancel: 'BILLING.SUBSCRIPTION.CANCELLED',
};

/**
 * What happens at PayPal after approval: a renewal is charged, a charge
 * fails, the subscription is suspended or cancelled there. Changes the mock's
 * state and returns the webhook PayPal would send, with its transmission
 * headers signed so that the mock's verify endpoint accepts them.
 */
export async function simulatePayPal(
  subscriptionId: string,
  what: PayPalSimulation,
  webhookId: string,
) {
  const before = await readSubscription(subscriptionId);
  const plan = before && (await planOf(before.plan_id));
  const subscription = await changeSubscription(subscriptionId, (found) => {
    const now = new Date();
    if (what === 'renew' && plan) {
      const paidAt = found.billing_info?.next_billing_time ?? now.toISOString();
      found.billing_info = {
        outstanding_balance: { currency_code: plan.currency, value: '0.00' },
        failed_payments_count: 0,
        last_payment: { amount: { currency_code: plan.currency, value: plan.value }, time: paidAt },
        next_billing_time: addMonths(new Date(paidAt), plan.months).toISOString(),
      };
    } else if (what === 'fail' && found.billing_info) {
      found.billing_info.failed_payments_count += 1;
    } else if (what === 'halt') {
      found.status = 'SUSPENDED';
    } else if (what === 'cancel') {
      found.status = 'CANCELLED';
    }
    found.update_time = now.toISOString();
    return found;
  });
  if (!subscription) return undefined;
  const resource =
    what === 'renew'
      ? {
          id: id('', 17),
          state: 'completed',
          amount: {
            total: subscription.billing_info!.last_payment!.amount.value,
            currency: subscription.billing_info!.last_payment!.amount.currency_code,
          },
          billing_agreement_id: subscription.id,
          create_time: subscription.billing_info!.last_payment!.time,
        }
      : subscription;
  const event = {
    id: id('WH-', 17),
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: what === 'renew' ? 'sale' : 'subscription',
    event_type: EVENT_TYPES[what],
    summary: `Simulated ${EVENT_TYPES[what]}`,
    resource,
  };
  return signedPayPalWebhook(event, webhookId);
}

/** A webhook event as PayPal delivers it: its body and the transmission headers it signs. */
export function signedPayPalWebhook(event: object, webhookId: string) {
  const transmissionId = randomBytes(16).toString('hex');
  const transmissionTime = new Date().toISOString();
  return {
    body: JSON.stringify(event),
    headers: {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': transmissionSignature(
        transmissionId,
        transmissionTime,
        webhookId,
        event,
      ),
      'paypal-cert-url': `${PAYPAL_SANDBOX_URL}/v1/notifications/certs/CERT-DEMO`,
      'paypal-auth-algo': 'SHA256withRSA',
    },
  };
}

/** What the demo approval page shows: the seller, the plan, its price and the buyer. */
export async function mockPayPalApproval(token: string) {
  const approval = await readApproval(token);
  const subscription = approval && (await readSubscription(approval.subscriptionId));
  if (!approval || !subscription) return undefined;
  const planId = approval.newPlanId ?? subscription.plan_id;
  const plan = await planOf(planId);
  const subscriber = subscription.subscriber as {
    name?: { given_name?: string; surname?: string };
    email_address?: string;
  };
  // As PayPal's page writes it: the currency's sign, then its code ('₹699.00 INR').
  const amount = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: plan.currency,
  }).format(Number(plan.value));
  return {
    brandName: approval.brandName ?? null,
    planName: plan.name,
    price: `${amount} ${plan.currency} every ${plan.months === 12 ? 'year' : 'month'}`,
    trial: plan.trialDays > 0 ? `${plan.trialDays} days free, then the first payment` : null,
    buyer: [subscriber.name?.given_name, subscriber.name?.surname].filter(Boolean).join(' '),
    email: subscriber.email_address ?? '',
    revision: Boolean(approval.newPlanId),
  };
}

/**
 * The buyer approved: a new subscription becomes active with its first payment;
 * a revision moves it to the new plan. Returns where PayPal would send the
 * buyer, with the query parameters PayPal adds.
 */
export async function approveMockPayPal(token: string): Promise<string | undefined> {
  return change(async (records) => {
    const approval = await records.get<MockApproval>(APPROVAL, token);
    const subscription =
      approval && (await records.get<MockSubscription>(SUBSCRIPTION, approval.subscriptionId));
    if (!approval || !subscription) return undefined;
    await records.remove(APPROVAL, token);
    const now = new Date();
    if (approval.newPlanId) {
      subscription.plan_id = approval.newPlanId;
    } else {
      const plan = await planOf(subscription.plan_id, (kind, planId) =>
        records.get<MockPayPalPlan>(kind, planId),
      );
      const trial = plan.trialDays > 0;
      Object.assign(subscription, {
        status: 'ACTIVE',
        start_time: now.toISOString(),
        status_update_time: now.toISOString(),
        // A trial cycle first: active now, the first payment when the trial ends.
        billing_info: {
          outstanding_balance: { currency_code: plan.currency, value: '0.00' },
          failed_payments_count: 0,
          ...(trial
            ? {}
            : {
                last_payment: {
                  amount: { currency_code: plan.currency, value: plan.value },
                  time: now.toISOString(),
                },
              }),
          next_billing_time: (trial
            ? addDays(now, plan.trialDays)
            : addMonths(now, plan.months)
          ).toISOString(),
        },
      });
    }
    subscription.update_time = now.toISOString();
    await records.put(SUBSCRIPTION, subscription.id, subscription);
    const url = new URL(approval.returnUrl);
    url.searchParams.set('subscription_id', subscription.id);
    url.searchParams.set('ba_token', token);
    url.searchParams.set('token', id('', 17));
    return url.href;
  });
}

/** Where the buyer goes on cancelling the approval: the cancel URL, as PayPal sends it. */
export async function mockPayPalCancelUrl(token: string): Promise<string | undefined> {
  const approval = await readApproval(token);
  if (!approval) return undefined;
  const url = new URL(approval.cancelUrl);
  url.searchParams.set('ba_token', token);
  url.searchParams.set('token', token.replace(/^BA-/, 'EC-'));
  return url.href;
}

/** For tests: move a subscription's dates (e.g. a renewal or the end of a paid period). */
export async function editMockPayPalSubscription(
  subscriptionId: string,
  edit: (subscription: MockSubscription) => void,
) {
  await changeSubscription(subscriptionId, edit);
}
