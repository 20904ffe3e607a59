import { approveMockPayPal, simulatePayPal, type PayPalSimulation } from '../../../mocks/paypal';
import { simulateRazorpay, type RazorpaySimulation } from '../../../mocks/razorpay';
import type { PaymentProvider } from '../../../db/schema';
import { fail, ok, type Result } from '~/domain/result';
import { env } from '~/utils/env.server';
import { sendDemoWebhook } from './demo-webhooks.server';
import { paypalWebhookId } from '../vendors/paypal.server';

/**
 * Demo mode only: what happens at a simulated provider (a payment, a renewal,
 * a failed charge, a cancellation) and the signed webhook that provider would
 * then send, delivered to this app's own receiver and retried until it takes
 * it, like the real ones (`demo-webhooks.server.ts`).
 */
export type Simulation = 'renew' | 'fail' | 'halt' | 'cancel';

function simulated(provider: PaymentProvider): boolean {
  return env().mocked[provider];
}

/** The buyer approved on the demo PayPal page: PayPal's activation webhook follows. */
export async function approveDemoPayPal(token: string): Promise<string | undefined> {
  if (!simulated('paypal')) return undefined;
  const to = await approveMockPayPal(token);
  const subscriptionId = to ? new URL(to).searchParams.get('subscription_id') : null;
  const webhookId = paypalWebhookId();
  if (subscriptionId && webhookId) {
    const webhook = await simulatePayPal(subscriptionId, 'activated', webhookId);
    if (webhook) await sendDemoWebhook('paypal', webhook);
  }
  return to;
}

/** The member paid the demo Razorpay link: the subscription goes active and its webhook follows. */
export async function payDemoRazorpay(subscriptionId: string): Promise<boolean> {
  return (await simulateAt('razorpay', subscriptionId, 'pay')).ok;
}

/** The demo admin control: make something happen at the provider for one subscription. */
export async function simulateAt(
  provider: PaymentProvider,
  subscriptionId: string,
  what: Simulation | 'pay',
): Promise<Result<{ message: string; delivered: boolean }>> {
  if (!simulated(provider)) return fail('Not Found', 404);
  let webhook: { body: string; headers: Record<string, string> } | undefined;
  if (provider === 'razorpay') {
    const event = await simulateRazorpay(subscriptionId, what as RazorpaySimulation);
    webhook = event && {
      body: event.body,
      headers: { 'x-razorpay-signature': event.signature, 'x-razorpay-event-id': event.eventId },
    };
  } else {
    const webhookId = paypalWebhookId() ?? '';
    webhook = await simulatePayPal(
      subscriptionId,
      (what === 'pay' ? 'activated' : what) as PayPalSimulation,
      webhookId,
    );
  }
  if (!webhook) return fail('Subscription not found', 404);
  const delivered = await sendDemoWebhook(provider, webhook);
  const done = `Simulated ${what} at ${provider === 'paypal' ? 'PayPal' : 'Razorpay'}`;
  return ok({
    delivered,
    message: delivered
      ? done
      : `${done}. Its webhook could not be delivered yet; it will be retried.`,
  });
}
