import type { Subscription, SubscriptionsController } from '@paypal/paypal-server-sdk';
import {
  DEMO_PAYPAL_PLANS,
  DEMO_PAYPAL_WEBHOOK_ID,
  PAYPAL_LIVE_URL,
  PAYPAL_SANDBOX_URL,
} from '../../../mocks/paypal';
import type { PaidPlanId } from '~/domain/plans';
import { env } from '~/utils/env.server';
import {
  ProviderError,
  toCents,
  type BillingProvider,
  type ProviderStatus,
  type ProviderSubscription,
} from './billing-provider.server';

/**
 * PayPal subscriptions over the official SDK. Plan ids come from configuration
 * (PAYPAL_MONTHLY_PLAN_ID, PAYPAL_YEARLY_PLAN_ID); demo mode, without keys,
 * uses the mock's demo plans and the mock in `mocks/paypal.ts` answers.
 */
const DEMO_PLAN_IDS: Record<PaidPlanId, string> = {
  monthly: Object.keys(DEMO_PAYPAL_PLANS)[0]!,
  yearly: Object.keys(DEMO_PAYPAL_PLANS)[1]!,
};

export function paypalPlanIds(): Partial<Record<PaidPlanId, string>> {
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

function normalise(subscription: Subscription, rawBody?: unknown): ProviderSubscription {
  const planIds = paypalPlanIds();
  const plan =
    (Object.keys(planIds) as PaidPlanId[]).find((id) => planIds[id] === subscription.planId) ??
    null;
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

function planId(plan: PaidPlanId): string {
  const id = paypalPlanIds()[plan];
  if (!id) throw new ProviderError(`No PayPal plan id is configured for the ${plan} plan`);
  return id;
}

export const paypal: BillingProvider = {
  name: 'paypal',

  enabled() {
    const { PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, mocked } = env();
    const ids = paypalPlanIds();
    return (
      mocked.paypal ||
      Boolean(PAYPAL_CLIENT_ID && PAYPAL_CLIENT_SECRET && ids.monthly && ids.yearly)
    );
  },

  async createSubscription({ plan, customer, reference, urls }) {
    const { result, body } = await call('create', async () => {
      const { sdk, subscriptions } = await paypalApi();
      return subscriptions.createSubscription({
        prefer: 'return=representation',
        // PayPal's idempotency key: a retried create never makes a second subscription.
        paypalRequestId: reference,
        body: {
          planId: planId(plan),
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
            brandName: env().COMPANY_NAME,
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
    return normalise(result, body);
  },

  async cancelSubscription(id, reason) {
    await call('cancel', async () =>
      (await paypalApi()).subscriptions.cancelSubscription({
        id,
        body: { reason: reason.slice(0, 128) },
      }),
    );
  },

  async changePlan(id, plan, urls) {
    const { result } = await call('revise', async () => {
      const { sdk, subscriptions } = await paypalApi();
      return subscriptions.reviseSubscription({
        id,
        body: {
          planId: planId(plan),
          applicationContext: {
            brandName: env().COMPANY_NAME,
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
