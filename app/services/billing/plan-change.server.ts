import type { PaidPlanId } from '~/domain/plans';
import { brand } from '~/services/brand.server';
import { planOf } from '~/services/plans.server';
import { fail, ok, type Result } from '~/domain/result';
import {
  getSubscriptionByProviderId,
  recordPlanChange,
  type SubscriptionRow,
} from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import { log } from '~/utils/logger.server';
import type { ProviderSubscription } from '../vendors/billing-provider.server';
import { paypal } from '../vendors/paypal.server';
import { MESSAGES, paidSubscriptionOf, providerOf, providerPlanId } from './providers.server';

/** The other paid plan: monthly <-> yearly. */
const otherPlan = (plan: PaidPlanId): PaidPlanId => (plan === 'monthly' ? 'yearly' : 'monthly');

/** Modify: ask the provider to move the subscription to the other paid plan. */
export async function startPlanChange(
  user: User,
  returnBase: string,
  requested?: PaidPlanId,
): Promise<Result<{ approvalUrl: string; plan: PaidPlanId }>> {
  const current = await paidSubscriptionOf(user);
  if (!current.ok) return current;
  const subscription = current.value;
  if (subscription.provider === 'razorpay') return fail(MESSAGES.razorpayModify, 400);
  if (subscription.status !== 'active') return fail(MESSAGES.noSubscription, 409);
  const plan = requested ?? otherPlan(subscription.plan);
  if (plan === subscription.plan) return fail(MESSAGES.samePlan, 409);
  const planId = await providerPlanId(subscription.provider, plan);
  if (!planId) return fail(MESSAGES.providerDown, 502);
  try {
    const { approvalUrl } = await providerOf(subscription.provider).changePlan(
      subscription.providerSubscriptionId,
      planId,
      {
        returnUrl: new URL(`/successful?plan=${plan}`, returnBase).href,
        cancelUrl: new URL('/subscription', returnBase).href,
      },
      (await brand()).name,
    );
    return ok({ approvalUrl, plan });
  } catch (error) {
    log.warn('billing.revise_failed', { subscriptionId: subscription.id, error });
    return fail(MESSAGES.providerDown, 502);
  }
}

/**
 * After the provider sent the member back from approving a plan change: the
 * new plan and price apply once the provider's subscription shows it.
 */
export async function confirmPlanChange(
  user: User,
  providerSubscriptionId: string,
): Promise<Result<{ subscription: SubscriptionRow; provider: ProviderSubscription }>> {
  const row = await getSubscriptionByProviderId('paypal', providerSubscriptionId);
  if (!row || row.userId !== user.id) return fail(MESSAGES.notFound, 404);
  let state: ProviderSubscription;
  try {
    state = await paypal.fetchSubscription(providerSubscriptionId);
  } catch (error) {
    log.warn('billing.fetch_failed', { subscriptionId: row.id, error });
    return fail(MESSAGES.providerDown, 502);
  }
  if (!state.plan) return fail(MESSAGES.unknownPlan, 400);
  if (state.plan !== row.plan) {
    // The new plan's price as PayPal charges it now.
    await recordPlanChange(row.id, state.plan, (await planOf(state.plan)).prices.paypal);
    log.info('billing.plan_changed', { userId: user.id, plan: state.plan });
  }
  return ok({
    subscription: (await getSubscriptionByProviderId('paypal', providerSubscriptionId))!,
    provider: state,
  });
}
