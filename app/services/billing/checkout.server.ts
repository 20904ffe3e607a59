import type { BillingCustomer, PaymentProvider } from '../../../db/schema';
import type { PaidPlanId } from '~/domain/plans';
import { brand } from '~/services/brand.server';
import { planOf } from '~/services/plans.server';
import { fail, ok, type Result } from '~/domain/result';
import {
  createPendingSubscription,
  getCurrentSubscription,
  getSubscriptionByProviderId,
  markSubscriptionChecked,
  type Receipt,
  type SubscriptionRow,
} from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import { newId } from '~/utils/ids.server';
import { log } from '~/utils/logger.server';
import type { ProviderSubscription } from '../vendors/billing-provider.server';
import { enabledProvider, MESSAGES, providerPlanId } from './providers.server';
import { applyActiveState } from './reconciliation.server';

/**
 * The checkout: a subscription at the provider, stored as pending, and where to approve it.
 * `returnBase` is where the provider sends the member back (`providerReturnBase`).
 */
export async function startCheckout(
  user: User,
  input: {
    plan: PaidPlanId;
    provider: PaymentProvider;
    customer: BillingCustomer;
    returnBase: string;
  },
): Promise<
  Result<{ approvalUrl: string; next: string; subscriptionId: string; provider: unknown }>
> {
  const provider = await enabledProvider(input.provider);
  const planId = provider && (await providerPlanId(provider.name, input.plan));
  if (!provider || !planId) return fail('This payment method is not available', 400);
  const current = await getCurrentSubscription(user.id);
  if (current?.status === 'active')
    return fail('You already have a paid subscription. Modify it on the subscription page.', 409);
  const reference = newId();
  const [plan, { name: brandName }] = await Promise.all([planOf(input.plan), brand()]);
  try {
    const created = await provider.createSubscription({
      brandName,
      plan: input.plan,
      planId,
      trialDays: plan.trialDays,
      customer: input.customer,
      reference,
      urls: {
        returnUrl: new URL(`/success?plan=${input.plan}&method=${provider.name}`, input.returnBase)
          .href,
        cancelUrl: new URL('/failed', input.returnBase).href,
      },
    });
    await createPendingSubscription({
      id: reference,
      userId: user.id,
      provider: provider.name,
      providerSubscriptionId: created.id,
      plan: input.plan,
      // The price this member pays from now on (ADR 0055), in its provider's currency (ADR 0063).
      ...plan.prices[provider.name],
      approvalUrl: created.approvalUrl,
      customer: input.customer,
    });
    log.info('billing.checkout_started', { userId: user.id, provider: provider.name });
    // PayPal takes the member to its approval page; Razorpay's link opens beside /pending.
    const next =
      provider.name === 'razorpay'
        ? `/pending?subscription_id=${encodeURIComponent(created.id)}`
        : created.approvalUrl;
    return ok({
      approvalUrl: created.approvalUrl,
      next,
      subscriptionId: created.id,
      provider: created.raw,
    });
  } catch (error) {
    log.warn('billing.checkout_failed', { userId: user.id, provider: provider.name, error });
    return fail(MESSAGES.providerDown, 502);
  }
}

export interface ActiveSubscription {
  subscription: SubscriptionRow;
  provider: ProviderSubscription;
  receipt: Receipt | undefined;
}

/**
 * After the provider sent the member back: fetch the subscription from the
 * provider and, when it is active on a configured plan, make the member paid,
 * record the payment's receipt and email it, each exactly once however often
 * (or however many tabs at once) the return URL is opened.
 */
export async function confirmSubscription(
  user: User,
  providerName: PaymentProvider,
  providerSubscriptionId: string,
): Promise<Result<ActiveSubscription>> {
  const provider = await enabledProvider(providerName);
  const row = await getSubscriptionByProviderId(providerName, providerSubscriptionId);
  // Another member's subscription looks exactly like a missing one.
  if (!provider || !row || row.userId !== user.id) return fail(MESSAGES.notFound, 404);
  let state: ProviderSubscription;
  try {
    state = await provider.fetchSubscription(providerSubscriptionId);
  } catch (error) {
    log.warn('billing.fetch_failed', { subscriptionId: row.id, error });
    return fail(MESSAGES.providerDown, 502);
  }
  await markSubscriptionChecked(row.id, new Date());
  if (state.status === 'pending') return fail(MESSAGES.pending, 409);
  if (state.status !== 'active') return fail(MESSAGES.ended, 410);
  if (!state.plan) return fail(MESSAGES.unknownPlan, 400);

  const { subscription, receipt, created } = await applyActiveState(row, state.plan, state);
  if (created) log.info('billing.activated', { userId: user.id, subscriptionId: row.id });
  return ok({ subscription, provider: state, receipt });
}

/** The pending page: the Razorpay payment link of the member's own pending subscription. */
export async function pendingPayment(
  user: User,
  providerSubscriptionId: string,
): Promise<Result<{ link: string; subscriptionId: string }>> {
  const row = await getSubscriptionByProviderId('razorpay', providerSubscriptionId);
  if (!row || row.userId !== user.id || !row.approvalUrl) return fail(MESSAGES.notFound, 404);
  return ok({ link: row.approvalUrl, subscriptionId: row.providerSubscriptionId });
}
