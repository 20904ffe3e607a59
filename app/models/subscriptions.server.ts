import { and, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import {
  receipts,
  subscriptions,
  users,
  type BillingCustomer,
  type PaymentProvider,
  type SubscriptionStatus,
} from '../../db/schema';
import type { PaidPlanId } from '~/domain/plans';
import { db, writeTransaction } from '~/utils/db.server';

/**
 * Subscriptions, as the providers last told us, and the member's plan that
 * follows from them. Every change of a member's plan happens here, in the same
 * transaction as the subscription row it follows from.
 */
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type Receipt = typeof receipts.$inferSelect;

export function createPendingSubscription(input: {
  id: string;
  userId: string;
  provider: PaymentProvider;
  providerSubscriptionId: string;
  plan: PaidPlanId;
  amountCents: number;
  approvalUrl: string;
  customer: BillingCustomer;
}): SubscriptionRow {
  return db()
    .insert(subscriptions)
    .values({ ...input, status: 'pending', currency: 'USD' })
    .returning()
    .get();
}

export function getSubscriptionByProviderId(
  provider: PaymentProvider,
  providerSubscriptionId: string,
): SubscriptionRow | undefined {
  return db()
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, provider),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    )
    .get();
}

/**
 * The member's current subscription: the newest active one, else the newest
 * cancelled one still paid for. Undefined for a free member.
 */
export function getCurrentSubscription(userId: string): SubscriptionRow | undefined {
  return db()
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        or(
          eq(subscriptions.status, 'active'),
          and(eq(subscriptions.status, 'cancelled'), sql`${subscriptions.paidUntil} is not null`),
        ),
      ),
    )
    .orderBy(sql`${subscriptions.status} = 'active' desc`, desc(subscriptions.createdAt))
    .get();
}

export interface ProviderState {
  status: SubscriptionStatus;
  plan: PaidPlanId;
  amountCents: number;
  startedAt: Date | null;
  nextBillingAt: Date | null;
}

/**
 * Applies what the provider says of an active subscription, in one
 * transaction: the row, the member's plan and (once per payment) its receipt.
 * Returns the receipt and whether this call created it.
 */
export function recordActivePayment(
  subscriptionId: string,
  state: ProviderState,
  payment: { key: string; amountCents: number; currency: string; paidAt: Date } | null,
): { receipt: Receipt | undefined; created: boolean } {
  return writeTransaction((tx) => {
    const row = tx
      .update(subscriptions)
      .set({
        status: 'active',
        plan: state.plan,
        amountCents: state.amountCents,
        startedAt: state.startedAt,
        nextBillingAt: state.nextBillingAt,
        cancelledAt: null,
        paidUntil: null,
        updatedAt: new Date(),
      })
      .where(eq(subscriptions.id, subscriptionId))
      .returning()
      .get();
    if (!row) throw new Error(`Subscription ${subscriptionId} is gone`);
    tx.update(users)
      .set({ plan: state.plan, updatedAt: new Date() })
      .where(eq(users.id, row.userId))
      .run();
    if (!payment) return { receipt: undefined, created: false };
    const inserted = tx
      .insert(receipts)
      .values({
        subscriptionId,
        userId: row.userId,
        providerPaymentKey: payment.key,
        plan: state.plan,
        amountCents: payment.amountCents,
        currency: payment.currency,
        paidAt: payment.paidAt,
        nextBillingAt: state.nextBillingAt,
      })
      .onConflictDoNothing()
      .returning()
      .get();
    const receipt =
      inserted ??
      tx
        .select()
        .from(receipts)
        .where(
          and(
            eq(receipts.subscriptionId, subscriptionId),
            eq(receipts.providerPaymentKey, payment.key),
          ),
        )
        .get();
    return { receipt, created: Boolean(inserted) };
  });
}

/** The provider confirmed a move to another plan: the row and the member's plan, together. */
export function recordPlanChange(subscriptionId: string, plan: PaidPlanId, amountCents: number) {
  writeTransaction((tx) => {
    const row = tx
      .update(subscriptions)
      .set({ plan, amountCents, updatedAt: new Date() })
      .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.status, 'active')))
      .returning()
      .get();
    if (row)
      tx.update(users).set({ plan, updatedAt: new Date() }).where(eq(users.id, row.userId)).run();
  });
}

/** Cancelled at the member's request: the plan stays until `paidUntil`. */
export function recordCancellation(subscriptionId: string, now: Date, paidUntil: Date) {
  db()
    .update(subscriptions)
    .set({ status: 'cancelled', cancelledAt: now, paidUntil, updatedAt: now })
    .where(eq(subscriptions.id, subscriptionId))
    .run();
}

/**
 * Members whose cancelled subscription is paid up to `now` or earlier, and who
 * have no active one, drop to the free plan. Returns how many did.
 */
export function expirePaidPeriods(now: Date): number {
  return writeTransaction((tx) => {
    const ended = tx
      .select({ id: subscriptions.id, userId: subscriptions.userId })
      .from(subscriptions)
      .where(and(eq(subscriptions.status, 'cancelled'), lte(subscriptions.paidUntil, now)))
      .all();
    if (ended.length === 0) return 0;
    tx.update(subscriptions)
      .set({ status: 'expired', updatedAt: now })
      .where(
        inArray(
          subscriptions.id,
          ended.map((row) => row.id),
        ),
      )
      .run();
    const stillPaying = new Set(
      tx
        .select({ userId: subscriptions.userId })
        .from(subscriptions)
        .where(
          and(
            inArray(
              subscriptions.userId,
              ended.map((row) => row.userId),
            ),
            or(
              eq(subscriptions.status, 'active'),
              and(eq(subscriptions.status, 'cancelled'), sql`${subscriptions.paidUntil} > ${+now}`),
            ),
          ),
        )
        .all()
        .map((row) => row.userId),
    );
    const dropped = [...new Set(ended.map((row) => row.userId))].filter(
      (userId) => !stillPaying.has(userId),
    );
    if (dropped.length > 0)
      tx.update(users)
        .set({ plan: 'free', updatedAt: now })
        .where(inArray(users.id, dropped))
        .run();
    return dropped.length;
  });
}

/** The member's receipts, newest first. */
export function listReceipts(userId: string): Receipt[] {
  return db()
    .select()
    .from(receipts)
    .where(eq(receipts.userId, userId))
    .orderBy(desc(receipts.number))
    .all();
}

/** One receipt of this member (another member's is as missing). */
export function getReceiptForUser(number: number, userId: string) {
  return db()
    .select({ receipt: receipts, subscription: subscriptions })
    .from(receipts)
    .innerJoin(subscriptions, eq(subscriptions.id, receipts.subscriptionId))
    .where(and(eq(receipts.number, number), eq(receipts.userId, userId)))
    .get();
}

/** Claims the receipt's email for one sender; false when it went out or is being sent. */
export function claimReceiptEmail(number: number, now: Date, leaseMs: number): boolean {
  const claim = db()
    .update(receipts)
    .set({ emailClaimedAt: now })
    .where(
      and(
        eq(receipts.number, number),
        isNull(receipts.emailedAt),
        or(isNull(receipts.emailClaimedAt), lte(receipts.emailClaimedAt, new Date(+now - leaseMs))),
      ),
    )
    .run();
  return claim.changes > 0;
}

export function finishReceiptEmail(number: number, sent: boolean) {
  db()
    .update(receipts)
    .set(sent ? { emailedAt: new Date(), emailClaimedAt: null } : { emailClaimedAt: null })
    .where(eq(receipts.number, number))
    .run();
}

/** Subscriptions the provider may still change: waiting, active, or cancelled but still paid for. */
const live = () =>
  or(
    eq(subscriptions.status, 'pending'),
    eq(subscriptions.status, 'active'),
    and(eq(subscriptions.status, 'cancelled'), sql`${subscriptions.paidUntil} is not null`),
  );

/**
 * One round of the reconciliation (ADR 0037): every live subscription is re-checked once per
 * `periodMinutes`, and a round every `roundMinutes` takes its share, so a big install asks the
 * provider evenly over the period instead of all at once. Those not checked for a whole period
 * qualify, the longest unchecked (never checked first) before the others, at most
 * ceil(live / rounds per period) of them. They are marked checked now, so a second worker's round
 * does not take them too.
 */
export function takeSubscriptionsToReconcile(
  now: Date,
  periodMinutes: number,
  roundMinutes = 1,
): SubscriptionRow[] {
  return writeTransaction((tx) => {
    const total = tx
      .select({ n: sql<number>`count(*)` })
      .from(subscriptions)
      .where(live())
      .get()!.n;
    if (total === 0) return [];
    const share = Math.ceil((total * roundMinutes) / periodMinutes);
    const staleBefore = new Date(now.getTime() - periodMinutes * 60_000);
    const due = tx
      .select()
      .from(subscriptions)
      .where(
        and(live(), or(isNull(subscriptions.checkedAt), lte(subscriptions.checkedAt, staleBefore))),
      )
      .orderBy(sql`${subscriptions.checkedAt} asc nulls first`)
      .limit(share)
      .all();
    if (due.length > 0)
      tx.update(subscriptions)
        .set({ checkedAt: now })
        .where(
          inArray(
            subscriptions.id,
            due.map((row) => row.id),
          ),
        )
        .run();
    return due;
  });
}

/** The server just fetched it from the provider (a webhook's job): the reconciliation can wait. */
export function markSubscriptionChecked(subscriptionId: string, now: Date) {
  db()
    .update(subscriptions)
    .set({ checkedAt: now })
    .where(eq(subscriptions.id, subscriptionId))
    .run();
}

/** The provider ended it (halted, suspended, expired): the member drops to free now. */
export function recordSubscriptionEnded(subscriptionId: string, now: Date) {
  recordCancellation(subscriptionId, now, now);
  expirePaidPeriods(now);
}

/** The newest subscriptions with their members, for the demo billing control. */
export function listRecentSubscriptions(limit = 50) {
  return db()
    .select({
      id: subscriptions.id,
      provider: subscriptions.provider,
      providerSubscriptionId: subscriptions.providerSubscriptionId,
      plan: subscriptions.plan,
      status: subscriptions.status,
      email: users.email,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(limit)
    .all();
}

/**
 * Receipts made between `since` and `before` whose email has not gone out and is not being sent
 * (no live claim), with their subscription and the member's address: the sweep's part.
 */
export function listReceiptsToEmail(
  range: { since: Date; before: Date },
  now: Date,
  leaseMs: number,
) {
  return db()
    .select({ receipt: receipts, subscription: subscriptions, email: users.email })
    .from(receipts)
    .innerJoin(subscriptions, eq(subscriptions.id, receipts.subscriptionId))
    .innerJoin(users, eq(users.id, receipts.userId))
    .where(
      and(
        isNull(receipts.emailedAt),
        gte(receipts.createdAt, range.since),
        lte(receipts.createdAt, range.before),
        or(isNull(receipts.emailClaimedAt), lte(receipts.emailClaimedAt, new Date(+now - leaseMs))),
      ),
    )
    .all();
}
