import {
  and,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lte,
  ne,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type {
  receipts,
  subscriptions,
  BillingCustomer,
  PaymentProvider,
  SubscriptionStatus,
} from '../../db/schema';
import type { PaidPlanId } from '~/domain/plans';
import { database, first, tables, transaction, type Tables } from '~/utils/database.server';

/**
 * Subscriptions, as the providers last told us, and the member's plan that
 * follows from them. Every change of a member's plan happens here, in the same
 * transaction as the subscription row it follows from.
 */
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type Receipt = typeof receipts.$inferSelect;

export async function createPendingSubscription(input: {
  id: string;
  userId: string;
  provider: PaymentProvider;
  providerSubscriptionId: string;
  plan: PaidPlanId;
  amountCents: number;
  currency: string;
  approvalUrl: string;
  customer: BillingCustomer;
}): Promise<SubscriptionRow> {
  const { subscriptions } = tables;
  const [row] = await database()
    .insert(subscriptions)
    .values({ ...input, status: 'pending' })
    .returning();
  return row!;
}

export async function getSubscriptionByProviderId(
  provider: PaymentProvider,
  providerSubscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  const { subscriptions } = tables;
  return first(
    database()
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.provider, provider),
          eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
        ),
      ),
  );
}

/**
 * The member's current subscription: the newest active one, else the newest
 * cancelled one still paid for. Undefined for a free member.
 */
export async function getCurrentSubscription(userId: string): Promise<SubscriptionRow | undefined> {
  const { subscriptions } = tables;
  return first(
    database()
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
      .limit(1),
  );
}

export interface ProviderState {
  status: SubscriptionStatus;
  plan: PaidPlanId;
  amountCents: number;
  currency: string;
  startedAt: Date | null;
  nextBillingAt: Date | null;
}

type Tx = Parameters<Parameters<typeof transaction>[0]>[0];

/** The row active as the provider reported it, and its member on its plan. */
async function activate(tx: Tx, subscriptionId: string, state: ProviderState, userId: string) {
  const { subscriptions, users } = tables;
  await tx
    .update(subscriptions)
    .set({
      status: 'active',
      plan: state.plan,
      amountCents: state.amountCents,
      currency: state.currency,
      startedAt: state.startedAt,
      nextBillingAt: state.nextBillingAt,
      cancelledAt: null,
      paidUntil: null,
      updatedAt: new Date(),
    })
    .where(eq(subscriptions.id, subscriptionId));
  await tx
    .update(users)
    .set({ plan: state.plan, updatedAt: new Date() })
    .where(eq(users.id, userId));
  return { userId };
}

/**
 * Applies what the provider says of an active subscription, in one
 * transaction: the row, the member's plan and (once per payment) its receipt.
 * Returns the receipt and whether this call created it.
 */
export async function recordActivePayment(
  subscriptionId: string,
  state: ProviderState,
  payment: { key: string; amountCents: number; currency: string; paidAt: Date } | null,
): Promise<{ receipt: Receipt | undefined; created: boolean }> {
  const { receipts, subscriptions } = tables;
  return transaction(async (tx) => {
    // A cancellation is final at both providers, so a provider state saying "active" about a
    // cancelled row was read before the cancel (a webhook or reconciliation racing the member's
    // POST /api/paypalcancel, issue 42): it must not bring the subscription back, or a new
    // checkout is refused as "You already have a paid subscription". Its payment still counts.
    const current = await first(
      tx
        .select({ userId: subscriptions.userId, status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.id, subscriptionId)),
    );
    if (!current) throw new Error(`Subscription ${subscriptionId} is gone`);
    const row =
      current.status === 'cancelled'
        ? current
        : await activate(tx, subscriptionId, state, current.userId);
    if (!payment) return { receipt: undefined, created: false };
    const [inserted] = await tx
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
      .returning();
    const receipt =
      inserted ??
      (await first(
        tx
          .select()
          .from(receipts)
          .where(
            and(
              eq(receipts.subscriptionId, subscriptionId),
              eq(receipts.providerPaymentKey, payment.key),
            ),
          ),
      ));
    return { receipt, created: Boolean(inserted) };
  });
}

/** The provider confirmed a move to another plan: the row and the member's plan, together. */
export async function recordPlanChange(
  subscriptionId: string,
  plan: PaidPlanId,
  price: { amountCents: number; currency: string },
) {
  const { subscriptions, users } = tables;
  await transaction(async (tx) => {
    const [row] = await tx
      .update(subscriptions)
      .set({
        plan,
        amountCents: price.amountCents,
        currency: price.currency,
        updatedAt: new Date(),
      })
      .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.status, 'active')))
      .returning();
    if (row)
      await tx.update(users).set({ plan, updatedAt: new Date() }).where(eq(users.id, row.userId));
  });
}

/** Cancelled at the member's request: the plan stays until `paidUntil`. */
/**
 * Records a cancellation once: the member's cancel and the provider's webhook both report it, and
 * whichever read the row before the other wrote must not write again (a late webhook would move
 * `paidUntil` after the scheduled job had already used it).
 */
export async function recordCancellation(subscriptionId: string, now: Date, paidUntil: Date) {
  const { subscriptions } = tables;
  await database()
    .update(subscriptions)
    .set({ status: 'cancelled', cancelledAt: now, paidUntil, updatedAt: now })
    .where(
      and(
        eq(subscriptions.id, subscriptionId),
        notInArray(subscriptions.status, ['cancelled', 'expired']),
      ),
    );
}

/**
 * Members whose cancelled subscription is paid up to `now` or earlier, and who
 * have no active one, drop to the free plan. Returns how many did.
 */
export async function expirePaidPeriods(now: Date): Promise<number> {
  const { subscriptions, users } = tables;
  return transaction(async (tx) => {
    const ended = await tx
      .select({ id: subscriptions.id, userId: subscriptions.userId })
      .from(subscriptions)
      .where(and(eq(subscriptions.status, 'cancelled'), lte(subscriptions.paidUntil, now)));
    if (ended.length === 0) return 0;
    await tx
      .update(subscriptions)
      .set({ status: 'expired', updatedAt: now })
      .where(
        inArray(
          subscriptions.id,
          ended.map((row) => row.id),
        ),
      );
    const paying = await tx
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
            // Through the column, so that `now` is mapped as each database stores it.
            and(eq(subscriptions.status, 'cancelled'), gt(subscriptions.paidUntil, now)),
          ),
        ),
      );
    const stillPaying = new Set(paying.map((row) => row.userId));
    const dropped = [...new Set(ended.map((row) => row.userId))].filter(
      (userId) => !stillPaying.has(userId),
    );
    if (dropped.length > 0)
      await tx
        .update(users)
        .set({ plan: 'free', updatedAt: now })
        .where(inArray(users.id, dropped));
    return dropped.length;
  });
}

/** The member's receipts, newest first. */
export async function listReceipts(userId: string): Promise<Receipt[]> {
  const { receipts } = tables;
  return database()
    .select()
    .from(receipts)
    .where(eq(receipts.userId, userId))
    .orderBy(desc(receipts.number));
}

/** One receipt of this member (another member's is as missing). */
export async function getReceiptForUser(number: number, userId: string) {
  const { receipts, subscriptions } = tables;
  return first(
    database()
      .select({ receipt: receipts, subscription: subscriptions })
      .from(receipts)
      .innerJoin(subscriptions, eq(subscriptions.id, receipts.subscriptionId))
      .where(and(eq(receipts.number, number), eq(receipts.userId, userId))),
  );
}

/** Claims the receipt's email for one sender; false when it went out or is being sent. */
export async function claimReceiptEmail(
  number: number,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const { receipts } = tables;
  const claimed = await database()
    .update(receipts)
    .set({ emailClaimedAt: now })
    .where(
      and(
        eq(receipts.number, number),
        isNull(receipts.emailedAt),
        or(isNull(receipts.emailClaimedAt), lte(receipts.emailClaimedAt, new Date(+now - leaseMs))),
      ),
    )
    .returning({ number: receipts.number });
  return claimed.length > 0;
}

export async function finishReceiptEmail(number: number, sent: boolean) {
  const { receipts } = tables;
  await database()
    .update(receipts)
    .set(sent ? { emailedAt: new Date(), emailClaimedAt: null } : { emailClaimedAt: null })
    .where(eq(receipts.number, number));
}

/** Subscriptions the provider may still change: waiting, active, or cancelled but still paid for. */
const live = ({ subscriptions }: Pick<Tables, 'subscriptions'>) =>
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
export async function takeSubscriptionsToReconcile(
  now: Date,
  periodMinutes: number,
  roundMinutes = 1,
): Promise<SubscriptionRow[]> {
  const { subscriptions } = tables;
  return transaction(async (tx) => {
    const total =
      (await first(tx.select({ n: count() }).from(subscriptions).where(live(tables))))?.n ?? 0;
    if (total === 0) return [];
    const share = Math.ceil((total * roundMinutes) / periodMinutes);
    const staleBefore = new Date(now.getTime() - periodMinutes * 60_000);
    const due = await tx
      .select()
      .from(subscriptions)
      .where(
        and(
          live(tables),
          or(isNull(subscriptions.checkedAt), lte(subscriptions.checkedAt, staleBefore)),
        ),
      )
      .orderBy(sql`${subscriptions.checkedAt} asc nulls first`)
      .limit(share);
    if (due.length > 0)
      await tx
        .update(subscriptions)
        .set({ checkedAt: now })
        .where(
          inArray(
            subscriptions.id,
            due.map((row) => row.id),
          ),
        );
    return due;
  });
}

/** The server just fetched it from the provider (a webhook's job): the reconciliation can wait. */
export async function markSubscriptionChecked(subscriptionId: string, now: Date) {
  const { subscriptions } = tables;
  await database()
    .update(subscriptions)
    .set({ checkedAt: now })
    .where(eq(subscriptions.id, subscriptionId));
}

/** The provider ended it (halted, suspended, expired): the member drops to free now. */
export async function recordSubscriptionEnded(subscriptionId: string, now: Date) {
  const { subscriptions } = tables;
  // Also a cancelled one: the period it had left ends with it.
  await database()
    .update(subscriptions)
    .set({ status: 'cancelled', cancelledAt: now, paidUntil: now, updatedAt: now })
    .where(and(eq(subscriptions.id, subscriptionId), ne(subscriptions.status, 'expired')));
  await expirePaidPeriods(now);
}

/** The newest subscriptions with their members, for the demo billing control. */
export async function listRecentSubscriptions(limit = 50) {
  const { subscriptions, users } = tables;
  return database()
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
    .limit(limit);
}

/**
 * Receipts made between `since` and `before` whose email has not gone out and is not being sent
 * (no live claim), with their subscription and the member's address: the sweep's part.
 */
export async function listReceiptsToEmail(
  range: { since: Date; before: Date },
  now: Date,
  leaseMs: number,
) {
  const { receipts, subscriptions, users } = tables;
  return database()
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
    );
}
