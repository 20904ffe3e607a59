import type { PaymentProvider } from '../../../db/schema';
import { planName } from '~/domain/plans';
import { ok, type Result } from '~/domain/result';
import {
  getCurrentSubscription,
  listReceipts,
  type Receipt,
  type SubscriptionRow,
} from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import { log } from '~/utils/logger.server';
import type { ProviderSubscription } from '../vendors/billing-provider.server';
import { paidSubscriptionOf, providerOf } from './providers.server';
import { formatMoney } from './receipt-document.server';

/** What the pages and the API show of a member's subscription. */

/** What /subscription and /api/subscriptiondetail show: our record and the provider's own. */
export async function subscriptionDetails(user: User): Promise<
  Result<{
    subscription: SubscriptionRow;
    provider: ProviderSubscription | null;
    receipts: Receipt[];
  }>
> {
  const current = await paidSubscriptionOf(user);
  if (!current.ok) return current;
  let state: ProviderSubscription | null = null;
  try {
    state =
      (await providerOf(current.value.provider)?.fetchSubscription(
        current.value.providerSubscriptionId,
      )) ?? null;
  } catch (error) {
    // The page still shows what we recorded.
    log.warn('billing.fetch_failed', { subscriptionId: current.value.id, error });
  }
  return ok({
    subscription: current.value,
    provider: state,
    receipts: await listReceipts(user.id),
  });
}

const PROVIDER_LABELS: Record<PaymentProvider, string> = { paypal: 'PayPal', razorpay: 'Razorpay' };
const longDate = (date: Date | null | undefined) =>
  date
    ? date.toLocaleString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      })
    : '—';

/** The subscription summary the pages show, from our record and the provider's latest word. */
export function subscriptionSummary(
  subscription: SubscriptionRow,
  provider: ProviderSubscription | null,
) {
  return {
    method: PROVIDER_LABELS[subscription.provider],
    plan: planName(provider?.plan ?? subscription.plan),
    subscriptionId: subscription.providerSubscriptionId,
    status: subscription.status,
    startTime: longDate(provider?.startedAt ?? subscription.startedAt),
    nextBillingTime: longDate(provider?.nextBillingAt ?? subscription.nextBillingAt),
    paidUntil: subscription.paidUntil ? longDate(subscription.paidUntil) : null,
    // What this member pays: the price they subscribed at, whatever the plan costs today.
    amount: formatMoney(subscription.amountCents, subscription.currency),
  };
}

/** "Paid until …" for a member whose cancelled subscription still runs; null otherwise. */
export async function paidUntilOf(user: User): Promise<string | null> {
  const current = await getCurrentSubscription(user.id);
  return current?.status === 'cancelled' ? longDate(current.paidUntil) : null;
}
