import type { BillingCustomer, PaymentProvider } from '../../db/schema';
import { getPlan, isPaidPlan, paidPlanNamed, type PaidPlanId } from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import {
  createPendingSubscription,
  expirePaidPeriods,
  getCurrentSubscription,
  getReceiptForUser,
  getSubscriptionByProviderId,
  listReceipts,
  markSubscriptionChecked,
  recordActivePayment,
  recordCancellation,
  recordPlanChange,
  recordSubscriptionEnded,
  takeSubscriptionsToReconcile,
  type Receipt,
  type SubscriptionRow,
} from '~/models/subscriptions.server';
import { getUserEmail, type User } from '~/models/users.server';
import { env } from '~/utils/env.server';
import { newId } from '~/utils/ids.server';
import { log } from '~/utils/logger.server';
import { emailReceiptOnce, receiptPdf, receiptFilename, sendReceiptEmail } from './receipts.server';
import type { BillingProvider, ProviderSubscription } from './vendors/billing-provider.server';
import { paypal, paypalPlanIds } from './vendors/paypal.server';
import { razorpayPlanIds, razorpayProvider } from './vendors/razorpay.server';

/**
 * Paid plans. The member's plan changes only after the server has fetched the
 * subscription from its provider and found it active on a configured plan;
 * nothing a browser sends about plan, price, user or type is trusted.
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

function providerFor(name: PaymentProvider): BillingProvider | undefined {
  const provider = PROVIDERS[name];
  return provider.enabled() ? provider : undefined;
}

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
  const provider = providerFor(input.provider);
  if (!provider) return fail('This payment method is not available', 400);
  const current = await getCurrentSubscription(user.id);
  if (current?.status === 'active')
    return fail('You already have a paid subscription. Modify it on the subscription page.', 409);
  const reference = newId();
  try {
    const created = await provider.createSubscription({
      plan: input.plan,
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
      amountCents: getPlan(input.plan).amountCents,
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
  const provider = providerFor(providerName);
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

/**
 * Records an active subscription as the provider reported it (plan, period, last payment) and
 * emails the payment's receipt once, whoever (return URL, webhook, reconciliation) gets here first.
 */
async function applyActiveState(
  row: SubscriptionRow,
  plan: PaidPlanId,
  state: ProviderSubscription,
) {
  const { receipt, created } = await recordActivePayment(
    row.id,
    {
      status: 'active',
      plan,
      amountCents: getPlan(plan).amountCents,
      startedAt: state.startedAt,
      nextBillingAt: state.nextBillingAt,
    },
    state.lastPayment,
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

async function paidSubscriptionOf(user: User): Promise<Result<SubscriptionRow>> {
  const subscription = await getCurrentSubscription(user.id);
  return subscription ? ok(subscription) : fail(MESSAGES.noSubscription, 404);
}

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
      (await PROVIDERS[current.value.provider]?.fetchSubscription(
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

const CANCEL_TRIES = 3;

/**
 * Cancels at the provider (tried a few times), then records it: the member
 * keeps the paid plan until the period already paid ends.
 */
export async function cancelSubscription(
  user: User,
  now = new Date(),
): Promise<Result<{ paidUntil: Date }>> {
  const current = await paidSubscriptionOf(user);
  if (!current.ok) return current;
  const subscription = current.value;
  if (subscription.status === 'cancelled') return ok({ paidUntil: subscription.paidUntil! });
  const provider = PROVIDERS[subscription.provider];
  for (let attempt = 1; ; attempt += 1) {
    try {
      await provider.cancelSubscription(
        subscription.providerSubscriptionId,
        'Cancelled by the member',
      );
      break;
    } catch (error) {
      // Already cancelled at the provider (e.g. a retry whose first answer was lost) counts as done.
      const state = await provider
        .fetchSubscription(subscription.providerSubscriptionId)
        .catch(() => undefined);
      if (state?.status === 'cancelled') break;
      log.warn('billing.cancel_failed', { subscriptionId: subscription.id, attempt, error });
      if (attempt >= CANCEL_TRIES) return fail(MESSAGES.cancelFailed, 502);
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
  const paidUntil = subscription.nextBillingAt ?? now;
  await recordCancellation(subscription.id, now, paidUntil);
  log.info('billing.cancelled', { userId: user.id, subscriptionId: subscription.id });
  return ok({ paidUntil });
}

/** The other paid plan: monthly <-> yearly. */
export const otherPlan = (plan: PaidPlanId): PaidPlanId =>
  plan === 'monthly' ? 'yearly' : 'monthly';

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
  try {
    const { approvalUrl } = await PROVIDERS[subscription.provider].changePlan(
      subscription.providerSubscriptionId,
      plan,
      {
        returnUrl: new URL(`/successful?plan=${plan}`, returnBase).href,
        cancelUrl: new URL('/subscription', returnBase).href,
      },
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
    await recordPlanChange(row.id, state.plan, getPlan(state.plan).amountCents);
    log.info('billing.plan_changed', { userId: user.id, plan: state.plan });
  }
  return ok({
    subscription: (await getSubscriptionByProviderId('paypal', providerSubscriptionId))!,
    provider: state,
  });
}

/** A receipt of the member's own, as its PDF. */
export async function receiptDownload(
  user: User,
  number: number,
): Promise<Result<{ filename: string; pdf: Buffer }>> {
  const found = await getReceiptForUser(number, user.id);
  if (!found) return fail('Receipt not found', 404);
  return ok({
    filename: receiptFilename(found.receipt),
    pdf: await receiptPdf(found.receipt, found.subscription),
  });
}

/** Emails one of the member's receipts (the newest when none is named) to the member. */
export async function emailReceipt(
  user: User,
  number?: number,
): Promise<Result<{ message: string }>> {
  const wanted = number ?? (await listReceipts(user.id))[0]?.number;
  const found = wanted === undefined ? undefined : await getReceiptForUser(wanted, user.id);
  if (!found) return fail('Receipt not found', 404);
  const sent = await sendReceiptEmail(found.receipt, found.subscription, user.email);
  return sent
    ? ok({ message: 'Receipt sent to your email' })
    : fail('The email could not be sent. Please try again later.', 502);
}

/** The scheduled job: cancelled subscriptions whose paid period ended drop their members to free. */
export async function endPaidPeriods(now = new Date()): Promise<number> {
  const dropped = await expirePaidPeriods(now);
  if (dropped > 0) log.info('billing.paid_periods_ended', { members: dropped });
  return dropped;
}

export function isPaidMember(user: Pick<User, 'plan'>): boolean {
  return isPaidPlan(user.plan);
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
  const plan = getPlan(provider?.plan ?? subscription.plan);
  return {
    method: PROVIDER_LABELS[subscription.provider],
    plan: plan.name,
    subscriptionId: subscription.providerSubscriptionId,
    status: subscription.status,
    startTime: longDate(provider?.startedAt ?? subscription.startedAt),
    nextBillingTime: longDate(provider?.nextBillingAt ?? subscription.nextBillingAt),
    paidUntil: subscription.paidUntil ? longDate(subscription.paidUntil) : null,
    amount: `$${(plan.amountCents / 100).toFixed(2)} USD`,
  };
}
export type SubscriptionSummaryView = ReturnType<typeof subscriptionSummary>;

/** "Paid until …" for a member whose cancelled subscription still runs; null otherwise. */
export async function paidUntilOf(user: User): Promise<string | null> {
  const current = await getCurrentSubscription(user.id);
  return current?.status === 'cancelled' ? longDate(current.paidUntil) : null;
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

/** The receipt of the newest payment, emailed unless it already went out. */
export async function emailLatestReceiptOnce(user: User): Promise<Result<{ message: string }>> {
  const latest = (await listReceipts(user.id))[0];
  const found = latest && (await getReceiptForUser(latest.number, user.id));
  if (!found) return fail('Receipt not found', 404);
  if (!found.receipt.emailedAt)
    await emailReceiptOnce(
      found.receipt,
      found.subscription,
      found.subscription.customer?.email ?? user.email,
    );
  return ok({ message: 'Receipt sent to your email' });
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
  const state = await PROVIDERS[providerName].fetchSubscription(providerSubscriptionId);
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
