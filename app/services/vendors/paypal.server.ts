import type { Subscription, SubscriptionsController } from '@paypal/paypal-server-sdk';
import {
  DEMO_PAYPAL_PLANS,
  DEMO_PAYPAL_WEBHOOK_ID,
  PAYPAL_LIVE_URL,
  PAYPAL_SANDBOX_URL,
} from '../../../mocks/paypal';
import { PLAN_NAMES, formatPrice, type PaidPlanId } from '~/domain/plans';
import {
  paidPlanOfProviderPlan,
  payPalProductId,
  recordPayPalProduct,
} from '~/models/provider-plans.server';
import { env } from '~/utils/env.server';
import {
  fromCents,
  ProviderError,
  toCents,
  type BillingProvider,
  type PlanTerms,
  type ProviderStatus,
  type ProviderSubscription,
} from './billing-provider.server';

/**
 * PayPal subscriptions over the official SDK. Plans are created by the settings page (ADR 0063);
 * until then their ids come from configuration (PAYPAL_MONTHLY_PLAN_ID, PAYPAL_YEARLY_PLAN_ID);
 * demo mode, without keys, uses the mock's demo plans and the mock in `mocks/paypal.ts` answers.
 */
const DEMO_PLAN_IDS: Record<PaidPlanId, string> = {
  monthly: Object.keys(DEMO_PAYPAL_PLANS)[0]!,
  yearly: Object.keys(DEMO_PAYPAL_PLANS)[1]!,
};

function paypalPlanIds(): Partial<Record<PaidPlanId, string>> {
  const { PAYPAL_MONTHLY_PLAN_ID, PAYPAL_YEARLY_PLAN_ID, mocked } = env();
  if (mocked.paypal) return DEMO_PLAN_IDS;
  return { monthly: PAYPAL_MONTHLY_PLAN_ID, yearly: PAYPAL_YEARLY_PLAN_ID };
}

/**
 * The SDK (tens of megabytes of code with its HTTP stack), loaded with the first PayPal call: a
 * process that never talks to PayPal never holds it.
 */
type PayPalSdk = typeof import('@paypal/paypal-server-sdk');
let loadedSdk: PayPalSdk | undefined;
let controller: SubscriptionsController | undefined;
let controllerKey = '';

/** The SDK and its subscriptions controller for this configuration. */
async function paypalApi(): Promise<{ sdk: PayPalSdk; subscriptions: SubscriptionsController }> {
  const { PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_ENVIRONMENT, mocked } = env();
  loadedSdk ??= await import('@paypal/paypal-server-sdk');
  const { Client, Environment, SubscriptionsController } = loadedSdk;
  const key = `${PAYPAL_CLIENT_ID}|${PAYPAL_ENVIRONMENT}|${mocked.paypal}`;
  if (!controller || key !== controllerKey) {
    const client = new Client({
      clientCredentialsAuthCredentials: {
        oAuthClientId: mocked.paypal ? 'demo-client' : (PAYPAL_CLIENT_ID ?? ''),
        oAuthClientSecret: mocked.paypal ? 'demo-secret' : (PAYPAL_CLIENT_SECRET ?? ''),
      },
      environment:
        PAYPAL_ENVIRONMENT === 'production' && !mocked.paypal
          ? Environment.Production
          : Environment.Sandbox,
      timeout: 15_000,
    });
    controller = new SubscriptionsController(client);
    controllerKey = key;
  }
  return { sdk: loadedSdk, subscriptions: controller };
}

const STATUS: Record<string, ProviderStatus> = {
  APPROVAL_PENDING: 'pending',
  APPROVED: 'pending',
  ACTIVE: 'active',
  SUSPENDED: 'suspended',
  CANCELLED: 'cancelled',
  EXPIRED: 'expired',
};

const date = (value: string | undefined) => (value ? new Date(value) : null);

/**
 * The subscription exactly as PayPal's REST API wrote it (snake_case: `start_time`,
 * `billing_info`, `subscriber`): the SDK keeps the raw body beside its camelCase model, and this
 * is what the API's clients read as "the provider subscription object".
 */
function restJson(body: unknown, fallback: Subscription): unknown {
  if (typeof body !== 'string') return fallback;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return fallback;
  }
}

/** The paid plan a PayPal plan id stands for: a configured one, or one the settings page created. */
async function paidPlanOf(planId: string | undefined): Promise<PaidPlanId | null> {
  if (!planId) return null;
  const planIds = paypalPlanIds();
  return (
    (Object.keys(planIds) as PaidPlanId[]).find((id) => planIds[id] === planId) ??
    (await paidPlanOfProviderPlan('paypal', planId)) ??
    null
  );
}

async function normalise(
  subscription: Subscription,
  rawBody?: unknown,
): Promise<ProviderSubscription> {
  const plan = await paidPlanOf(subscription.planId);
  const last = subscription.billingInfo?.lastPayment;
  return {
    provider: 'paypal',
    id: subscription.id ?? '',
    status: STATUS[subscription.status ?? ''] ?? 'pending',
    plan,
    startedAt: date(subscription.startTime),
    nextBillingAt: date(subscription.billingInfo?.nextBillingTime),
    lastPayment:
      last?.amount && last.time
        ? {
            key: last.time,
            amountCents: toCents(last.amount.value),
            currency: last.amount.currencyCode,
            paidAt: new Date(last.time),
          }
        : null,
    raw: restJson(rawBody, subscription),
  };
}

/** Runs one SDK call; a provider error or a time-out becomes a ProviderError. */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (loadedSdk && error instanceof loadedSdk.ApiError)
      throw new ProviderError(`PayPal ${what} failed with ${error.statusCode}`, error.statusCode);
    throw new ProviderError(
      `PayPal ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function approveLink(links: { rel: string; href: string }[] | undefined): string {
  const href = links?.find((link) => link.rel === 'approve')?.href;
  if (!href) throw new ProviderError('PayPal gave no approval link');
  return href;
}

const PERIOD_UNIT = { monthly: 'Month', yearly: 'Year' } as const;

/**
 * The catalog product every billing plan belongs to, created once, named after the brand as it is
 * then. The SDK has no catalog call, so it is PayPal's documented REST API with the same OAuth
 * token; the request id makes a retried create return the same product. That id names the one
 * product of this installation, so it is built from the environment's COMPANY_NAME (fixed until a
 * redeploy, and what installations have always sent), never from the brand's name: a name changed
 * on the settings page between a create whose answer was lost and its retry would otherwise make
 * a second product.
 */
async function catalogProduct(brandName: string): Promise<string> {
  const known = await payPalProductId();
  if (known) return known;
  const response = await fetch(`${apiBase()}/v1/catalogs/products`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${await accessToken()}`,
      'Content-Type': 'application/json',
      'PayPal-Request-Id': `coursegen-membership-${env().COMPANY_NAME}`.slice(0, 100),
      Prefer: 'return=representation',
    },
    body: JSON.stringify({
      name: `${brandName} membership`.slice(0, 127),
      description: 'AI-generated courses: monthly and yearly memberships',
      type: 'SERVICE',
      category: 'EDUCATIONAL_AND_TEXTBOOKS',
    }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok)
    throw new ProviderError(`PayPal product failed with ${response.status}`, response.status);
  const { id } = (await response.json()) as { id?: string };
  if (!id) throw new ProviderError('PayPal gave no product id');
  await recordPayPalProduct(id);
  return id;
}

export const paypal: BillingProvider = {
  name: 'paypal',

  configured() {
    const { PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, mocked } = env();
    return mocked.paypal || Boolean(PAYPAL_CLIENT_ID && PAYPAL_CLIENT_SECRET);
  },

  fallbackPlanIds: paypalPlanIds,

  /** A billing plan: its trial cycle first (free, by days) when there is one, then the price. */
  async createPlan({ plan, amountCents, currency, trialDays }: PlanTerms, brandName) {
    const productId = await catalogProduct(brandName);
    const { result } = await call('plan', async () => {
      const { sdk, subscriptions } = await paypalApi();
      const trial = trialDays > 0;
      return subscriptions.createBillingPlan({
        prefer: 'return=representation',
        body: {
          productId,
          name: `${PLAN_NAMES[plan]} ${formatPrice(amountCents, currency)}`,
          status: sdk.PlanRequestStatus.Active,
          billingCycles: [
            ...(trial
              ? [
                  {
                    frequency: { intervalUnit: sdk.IntervalUnit.Day, intervalCount: trialDays },
                    tenureType: sdk.TenureType.Trial,
                    sequence: 1,
                    totalCycles: 1,
                  },
                ]
              : []),
            {
              pricingScheme: {
                fixedPrice: { currencyCode: currency, value: fromCents(amountCents) },
              },
              frequency: { intervalUnit: sdk.IntervalUnit[PERIOD_UNIT[plan]], intervalCount: 1 },
              tenureType: sdk.TenureType.Regular,
              sequence: trial ? 2 : 1,
              totalCycles: 0,
            },
          ],
          paymentPreferences: { autoBillOutstanding: true, paymentFailureThreshold: 3 },
        },
      });
    });
    if (!result.id) throw new ProviderError('PayPal gave no plan id');
    return result.id;
  },

  async createSubscription({ planId, customer, reference, urls, brandName }) {
    const { result, body } = await call('create', async () => {
      const { sdk, subscriptions } = await paypalApi();
      return subscriptions.createSubscription({
        prefer: 'return=representation',
        // PayPal's idempotency key: a retried create never makes a second subscription. Our row
        // id, never the brand's name, which may change between a create and its retry.
        paypalRequestId: reference,
        body: {
          planId,
          customId: reference,
          subscriber: {
            emailAddress: customer.email,
            name: { givenName: customer.firstName, surname: customer.lastName },
            shippingAddress: {
              address: {
                addressLine1: customer.address,
                postalCode: customer.postalCode,
                countryCode: customer.country,
              },
            },
          },
          applicationContext: {
            // What PayPal's approval page names as the seller (at most 127 characters).
            brandName: brandName.slice(0, 127),
            shippingPreference: sdk.ExperienceContextShippingPreference.NoShipping,
            userAction: sdk.ApplicationContextUserAction.SubscribeNow,
            returnUrl: urls.returnUrl,
            cancelUrl: urls.cancelUrl,
          },
        },
      });
    });
    if (!result.id) throw new ProviderError('PayPal gave no subscription id');
    return {
      id: result.id,
      approvalUrl: approveLink(result.links),
      raw: restJson(body, result),
    };
  },

  async fetchSubscription(id) {
    const { result, body } = await call('get', async () =>
      (await paypalApi()).subscriptions.getSubscription({ id }),
    );
    return await normalise(result, body);
  },

  async cancelSubscription(id, reason) {
    await call('cancel', async () =>
      (await paypalApi()).subscriptions.cancelSubscription({
        id,
        body: { reason: reason.slice(0, 128) },
      }),
    );
  },

  async changePlan(id, planId, urls, brandName) {
    const { result } = await call('revise', async () => {
      const { sdk, subscriptions } = await paypalApi();
      return subscriptions.reviseSubscription({
        id,
        body: {
          planId,
          applicationContext: {
            brandName: brandName.slice(0, 127),
            shippingPreference: sdk.ExperienceContextShippingPreference.NoShipping,
            returnUrl: urls.returnUrl,
            cancelUrl: urls.cancelUrl,
          },
        },
      });
    });
    return { approvalUrl: approveLink(result.links) };
  },
};

/** The webhook id PayPal signs events for (a fixed demo id while PayPal is simulated). */
export function paypalWebhookId(): string | undefined {
  const { PAYPAL_WEBHOOK_ID, mocked } = env();
  return mocked.paypal ? DEMO_PAYPAL_WEBHOOK_ID : PAYPAL_WEBHOOK_ID;
}

function apiBase(): string {
  const { PAYPAL_ENVIRONMENT, mocked } = env();
  return PAYPAL_ENVIRONMENT === 'production' && !mocked.paypal
    ? PAYPAL_LIVE_URL
    : PAYPAL_SANDBOX_URL;
}

async function accessToken(): Promise<string> {
  const { PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, mocked } = env();
  const credentials = mocked.paypal
    ? 'demo-client:demo-secret'
    : `${PAYPAL_CLIENT_ID ?? ''}:${PAYPAL_CLIENT_SECRET ?? ''}`;
  const response = await fetch(`${apiBase()}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok)
    throw new ProviderError(`PayPal token failed with ${response.status}`, response.status);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Asks PayPal whether a webhook is genuine (its verify-webhook-signature API,
 * with PAYPAL_WEBHOOK_ID). False for anything unsigned, forged or unparsable.
 * The SDK has no call for this, so it is plain HTTPS to PayPal.
 */
export async function verifyPayPalWebhook(headers: Headers, body: string): Promise<boolean> {
  const webhookId = paypalWebhookId();
  const transmissionSig = headers.get('paypal-transmission-sig');
  if (!webhookId || !transmissionSig) return false;
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return false;
  }
  const response = await fetch(`${apiBase()}/v1/notifications/verify-webhook-signature`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${await accessToken()}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      auth_algo: headers.get('paypal-auth-algo'),
      cert_url: headers.get('paypal-cert-url'),
      transmission_id: headers.get('paypal-transmission-id'),
      transmission_sig: transmissionSig,
      transmission_time: headers.get('paypal-transmission-time'),
      webhook_id: webhookId,
      webhook_event: event,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok)
    throw new ProviderError(`PayPal verify failed with ${response.status}`, response.status);
  return (
    ((await response.json()) as { verification_status?: string }).verification_status === 'SUCCESS'
  );
}
