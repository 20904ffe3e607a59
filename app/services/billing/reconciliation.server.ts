import type { PaymentProvider } from '../../../db/schema';
import type { PaidPlanId } from '~/domain/plans';
import { planOf } from '~/services/plans.server';
import {
  expirePaidPeriods,
  getSubscriptionByProviderId,
  markSubscriptionChecked,
  recordActivePayment,
  recordCancellation,
  recordSubscriptionEnded,
  takeSubscriptionsToReconcile,
  type SubscriptionRow,
} from '~/models/subscriptions.server';
import { getUserEmail } from '~/models/users.server';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import type { ProviderSubscription } from '../vendors/billing-provider.server';
import { providerOf } from './providers.server';
import { emailReceiptOnce } from './receipts.server';

/**
 * Our record follows the provider's word (ADR 0011, 0037): for one subscription (the return URL,
 * a webhook) and, every minute, for a share of all of them; and paid periods that ended end.
 */

/**
 * Records an active subscription as the provider reported it (plan, period, last payment) and
 * emails the payment's receipt once, whoever (return URL, webhook, reconciliation) gets here first.
 */
export async function applyActiveState(
  row: SubscriptionRow,
  plan: PaidPlanId,
  state: ProviderSubscription,
) {
  // A member keeps the price they subscribed at (ADR 0055): a price set since then is for new
  // subscriptions; a change of plan takes the new plan's price as it is now. (The last payment is
  // what was paid before, under a plan changed since perhaps: not the price from now on.)
  const { lastPayment } = state;
  const { amountCents, currency } =
    row.plan === plan && row.amountCents > 0 ? row : (await planOf(plan)).prices[row.provider];
  const { receipt, created } = await recordActivePayment(
    row.id,
    {
      status: 'active',
      plan,
      amountCents,
      currency,
      startedAt: state.startedAt,
      nextBillingAt: state.nextBillingAt,
    },
    lastPayment && {
      ...lastPayment,
      amountCents: lastPayment.amountCents ?? amountCents,
      currency: lastPayment.currency ?? currency,
    },
  );
  const subscription = (await getSubscriptionByProviderId(
    row.provider,
    row.providerSubscriptionId,
  ))!;
  if (receipt && !receipt.emailedAt) {
    const to = subscription.customer?.email ?? (await getUserEmail(row.userId));
    if (to) await emailReceiptOnce(receipt, subscription, to);
  }
  return { subscription, receipt, created };
}

export type SyncOutcome = 'unknown' | 'unchanged' | 'activated' | 'paid' | 'cancelled' | 'ended';

/**
 * Makes our record say what the provider says of one subscription: the job
 * behind every webhook and the hourly reconciliation. Idempotent: applying the
 * same provider state twice changes nothing the second time.
 */
export async function syncSubscription(
  providerName: PaymentProvider,
  providerSubscriptionId: string,
  now = new Date(),
): Promise<SyncOutcome> {
  const row = await getSubscriptionByProviderId(providerName, providerSubscriptionId);
  if (!row) return 'unknown';
  const state = await providerOf(providerName).fetchSubscription(providerSubscriptionId);
  await markSubscriptionChecked(row.id, now);
  if (state.status === 'active' && state.plan) {
    const { created } = await applyActiveState(row, state.plan, state);
    if (row.status !== 'active') return 'activated';
    return created ? 'paid' : 'unchanged';
  }
  if (state.status === 'cancelled') {
    if (row.status === 'cancelled' || row.status === 'expired') return 'unchanged';
    // Cancelled at the provider: the period already paid for still counts (none if never paid).
    const paidUntil = row.status === 'active' ? (row.nextBillingAt ?? now) : now;
    await recordCancellation(row.id, now, paidUntil > now ? paidUntil : now);
    if (paidUntil <= now) await expirePaidPeriods(now);
    return 'cancelled';
  }
  if (state.status === 'suspended' || state.status === 'expired') {
    if (row.status === 'expired') return 'unchanged';
    await recordSubscriptionEnded(row.id, now);
    return 'ended';
  }
  return 'unchanged';
}

/**
 * A round of the reconciliation (the worker runs one a minute): re-fetch this round's share of the
 * live subscriptions, active ones included, so whatever a lost webhook left wrong (a renewal, a
 * failed charge, a suspension, a cancellation) is corrected within `periodMinutes` (ADR 0037).
 * One call at a time, so a round never bursts the provider's API.
 */
export async function reconcileSubscriptions(
  now = new Date(),
  periodMinutes = env().BILLING_RECONCILE_MINUTES,
) {
  const corrections: { subscriptionId: string; outcome: SyncOutcome }[] = [];
  for (const row of await takeSubscriptionsToReconcile(now, periodMinutes)) {
    try {
      const outcome = await syncSubscription(row.provider, row.providerSubscriptionId, now);
      if (outcome !== 'unchanged' && outcome !== 'unknown') {
        corrections.push({ subscriptionId: row.id, outcome });
        log.info('billing.reconciled', { subscriptionId: row.id, outcome });
      }
    } catch (error) {
      log.warn('billing.reconcile_failed', { subscriptionId: row.id, error });
    }
  }
  return corrections;
}

/** The scheduled job: cancelled subscriptions whose paid period ended drop their members to free. */
export async function endPaidPeriods(now = new Date()): Promise<number> {
  const dropped = await expirePaidPeriods(now);
  if (dropped > 0) log.info('billing.paid_periods_ended', { members: dropped });
  return dropped;
}
