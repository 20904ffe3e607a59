import { approveMockPayPal, simulatePayPal, type PayPalSimulation } from '../../mocks/paypal';
import { simulateRazorpay, type RazorpaySimulation } from '../../mocks/razorpay';
import type { PaymentProvider } from '../../db/schema';
import { fail, ok, type Result } from '~/domain/result';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { paypalWebhookId } from './vendors/paypal.server';

/**
 * Demo mode only: what happens at a simulated provider (a payment, a renewal,
 * a failed charge, a cancellation) and the signed webhook that provider would
 * then send, delivered to this site's own webhook endpoint like the real ones.
 */
export type Simulation = 'renew' | 'fail' | 'halt' | 'cancel';

function simulated(provider: PaymentProvider): boolean {
  return env().mocked[provider];
}

async function deliver(
  origin: string,
  provider: PaymentProvider,
  body: string,
  headers: Record<string, string>,
) {
  const response = await fetch(new URL(`/webhooks/${provider}`, origin), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) log.warn('demo.webhook_refused', { provider, status: response.status });
}

/** The buyer approved on the demo PayPal page: PayPal's activation webhook follows. */
export async function approveDemoPayPal(
  token: string,
  origin: string,
): Promise<string | undefined> {
  if (!simulated('paypal')) return undefined;
  const to = approveMockPayPal(token);
  const subscriptionId = to ? new URL(to).searchParams.get('subscription_id') : null;
  const webhookId = paypalWebhookId();
  if (subscriptionId && webhookId) {
    const webhook = simulatePayPal(subscriptionId, 'activated', webhookId);
    if (webhook)
      await deliver(origin, 'paypal', webhook.body, webhook.headers).catch(() => undefined);
  }
  return to;
}

/** The member paid the demo Razorpay link: the subscription goes active and its webhook follows. */
export async function payDemoRazorpay(subscriptionId: string, origin: string): Promise<boolean> {
  return (await simulateAt('razorpay', subscriptionId, 'pay', origin)).ok;
}

/** The demo admin control: make something happen at the provider for one subscription. */
export async function simulateAt(
  provider: PaymentProvider,
  subscriptionId: string,
  what: Simulation | 'pay',
  origin: string,
): Promise<Result<{ message: string }>> {
  if (!simulated(provider)) return fail('Not Found', 404);
  let webhook: { body: string; headers: Record<string, string> } | undefined;
  if (provider === 'razorpay') {
    const event = simulateRazorpay(subscriptionId, what as RazorpaySimulation);
    webhook = event && {
      body: event.body,
      headers: { 'x-razorpay-signature': event.signature, 'x-razorpay-event-id': event.eventId },
    };
  } else {
    const webhookId = paypalWebhookId() ?? '';
    webhook = simulatePayPal(
      subscriptionId,
      (what === 'pay' ? 'activated' : what) as PayPalSimulation,
      webhookId,
    );
  }
  if (!webhook) return fail('Subscription not found', 404);
  await deliver(origin, provider, webhook.body, webhook.headers);
  return ok({ message: `Simulated ${what} at ${provider === 'paypal' ? 'PayPal' : 'Razorpay'}` });
}
