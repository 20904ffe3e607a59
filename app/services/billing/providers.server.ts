import type { PaymentProvider } from '../../../db/schema';
import { paidPlanNamed, type PaidPlanId } from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { getCurrentSubscription, type SubscriptionRow } from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import type { BillingProvider } from '../vendors/billing-provider.server';
import { paypal, paypalPlanIds } from '../vendors/paypal.server';
import { razorpayPlanIds, razorpayProvider } from '../vendors/razorpay.server';

/**
 * Paid plans (ADR 0011). The member's plan changes only after the server has fetched the
 * subscription from its provider and found it active on a configured plan; nothing a browser
 * sends about plan, price, user or type is trusted. This module is what every billing use case
 * shares: the providers, the messages they answer with, the member's current subscription.
 */
const PROVIDERS: Record<PaymentProvider, BillingProvider> = {
  paypal,
  razorpay: razorpayProvider,
};

export const MESSAGES = {
  providerDown: 'The payment provider is not available right now. Please try again in a moment.',
  notFound: 'Subscription not found',
  pending: 'Payment is still pending',
  unknownPlan: 'This subscription is not for one of our plans',
  noSubscription: 'You have no paid subscription',
  cancelled: 'Subscription Cancelled',
  cancelFailed: 'We could not cancel your subscription. Please try again in a moment.',
  samePlan: 'You are already on this plan',
  razorpayModify: 'You cannot modify the plan because you have subscribed via Razorpay',
  ended: 'This subscription has ended',
} as const;

/** The providers a member may pay with: configured ones, or simulated in demo mode. */
export function enabledProviders(): PaymentProvider[] {
  return (Object.keys(PROVIDERS) as PaymentProvider[]).filter((name) => PROVIDERS[name].enabled());
}

/** A provider to start something new with: only an enabled one. */
export function enabledProvider(name: PaymentProvider): BillingProvider | undefined {
  const provider = PROVIDERS[name];
  return provider.enabled() ? provider : undefined;
}

/** The provider that holds a subscription already made, enabled or not. */
export function providerOf(name: PaymentProvider): BillingProvider {
  return PROVIDERS[name];
}

export async function paidSubscriptionOf(user: User): Promise<Result<SubscriptionRow>> {
  const subscription = await getCurrentSubscription(user.id);
  return subscription ? ok(subscription) : fail(MESSAGES.noSubscription, 404);
}

/**
 * A plan named by an API client: its id ('monthly'), its name ('Monthly Plan'), or a configured
 * PayPal or Razorpay plan id (what the spec's clients send as `planId`, `idPlan` or `plan`).
 */
export function planFromApi(value: unknown): PaidPlanId | null {
  const named = paidPlanNamed(value);
  if (named) return named;
  for (const ids of [paypalPlanIds(), razorpayPlanIds()]) {
    const plan = (Object.keys(ids) as PaidPlanId[]).find((plan) => ids[plan] === value);
    if (plan) return plan;
  }
  return null;
}
