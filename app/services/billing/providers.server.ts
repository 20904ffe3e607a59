import type { PaymentProvider } from '../../../db/schema';
import { PAYMENT_PROVIDERS } from '../../../db/enums';
import { paidPlanNamed, type PaidPlanId } from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { paidPlanOfProviderPlan } from '~/models/provider-plans.server';
import { getCurrentSubscription, type SubscriptionRow } from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import { planSettings } from '../plans.server';
import type { BillingProvider } from '../vendors/billing-provider.server';
import { BILLING_PROVIDERS } from '../vendors/billing-providers.server';

/**
 * Paid plans (ADR 0011). The member's plan changes only after the server has fetched the
 * subscription from its provider and found it active on a configured plan; nothing a browser
 * sends about plan, price, user or type is trusted. This module is what every billing use case
 * shares: the providers, the messages they answer with, the member's current subscription.
 */
const PROVIDERS = BILLING_PROVIDERS;

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

/**
 * The provider plan a checkout for `plan` subscribes to (ADR 0063): the one the settings page
 * created for the price set now, else the environment's (PAYPAL_MONTHLY_PLAN_ID...), for an
 * install that never saved a price.
 */
export async function providerPlanId(
  name: PaymentProvider,
  plan: PaidPlanId,
): Promise<string | undefined> {
  const settings = await planSettings();
  return settings[plan].prices[name].planId ?? PROVIDERS[name].fallbackPlanIds()[plan];
}

async function enabled(name: PaymentProvider): Promise<boolean> {
  if (!PROVIDERS[name].configured()) return false;
  const ids = await Promise.all([providerPlanId(name, 'monthly'), providerPlanId(name, 'yearly')]);
  return ids.every(Boolean);
}

/** The providers a member may pay with: configured with a plan for each price, or simulated. */
export async function enabledProviders(): Promise<PaymentProvider[]> {
  const enabledOnes = await Promise.all(PAYMENT_PROVIDERS.map(enabled));
  return PAYMENT_PROVIDERS.filter((_, index) => enabledOnes[index]);
}

/** A provider to start something new with: only an enabled one. */
export async function enabledProvider(name: PaymentProvider): Promise<BillingProvider | undefined> {
  return (await enabled(name)) ? PROVIDERS[name] : undefined;
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
export async function planFromApi(value: unknown): Promise<PaidPlanId | null> {
  const named = paidPlanNamed(value);
  if (named) return named;
  if (typeof value !== 'string') return null;
  for (const name of PAYMENT_PROVIDERS) {
    const ids = PROVIDERS[name].fallbackPlanIds();
    const plan =
      (Object.keys(ids) as PaidPlanId[]).find((plan) => ids[plan] === value) ??
      (await paidPlanOfProviderPlan(name, value));
    if (plan) return plan;
  }
  return null;
}
