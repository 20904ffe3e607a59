import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeKnobs } from '../../mocks/knobs';
import { get, pageResult, post, settle } from '../support/account-routes';
import { takeSubscriptionsToReconcile } from '~/models/subscriptions.server';
import { createUser } from '~/models/users.server';
import * as billingDemo from '~/routes/admin/admin.billing-demo';
import * as apiPaypal from '~/routes/api/api.paypal';
import * as apiPaypalCancel from '~/routes/api/api.paypalcancel';
import * as apiRazorpayCreate from '~/routes/api/api.razorpaycreate';
import * as successPage from '~/routes/member/success';
import * as demoApproval from '~/routes/public/demo.paypal.approve';
import { applyActiveState, reconcileSubscriptions } from '~/services/billing/reconciliation.server';
import { paypal } from '~/services/vendors/paypal.server';
import { createSession } from '~/utils/auth.server';
import { database, first, tables } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { newId } from '~/utils/ids.server';
import { startVendorMocks } from '~/utils/mocks.server';

/**
 * Issue 31, item 9: a suspension or cancellation whose webhook is lost must not leave the member
 * paid until the next billing date. The reconciliation re-checks active subscriptions too, each
 * once per BILLING_RECONCILE_MINUTES (an hour), a share of them a minute.
 */
beforeAll(() => {
  startVendorMocks();
});
afterEach(() => {
  fs.rmSync(path.join(env().DATA_DIR, 'mock-knobs.json'), { force: true });
});

let counter = 0;
async function member(role: 'member' | 'admin' = 'member') {
  counter += 1;
  const email = `reconciled-${counter}-${Date.now()}@example.com`;
  const user = await createUser({
    email,
    name: `Rec ${counter}`,
    password: 'long-enough-pw',
    role,
  });
  return { user, email, cookie: (await createSession(user.id)).split(';')[0]! };
}

const planOf = async (userId: string) => {
  const { users } = tables;
  return (await first(
    database().select({ plan: users.plan }).from(users).where(eq(users.id, userId)),
  ))!.plan;
};
const rowOf = async (providerSubscriptionId: string) => {
  const { subscriptions } = tables;
  return (await first(
    database()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId)),
  ))!;
};

/** A member with an active monthly PayPal subscription, approved on the demo page and confirmed. */
async function activePayPalMember() {
  const { user, cookie, email } = await member();
  const started = (await post(
    apiPaypal.action,
    '/api/paypal',
    {
      planId: 'monthly',
      email,
      name: 'Ada',
      lastName: 'Lovelace',
      post: '10115',
      address: '1 Analytical Street',
      country: 'DE',
    },
    { cookie },
  )) as Response;
  const { links } = (await started.json()) as { links: { href: string }[] };
  const approved = (await settle(
    demoApproval.action({
      request: new Request(links[0]!.href, { method: 'POST' }),
      params: {},
      context: {},
    }),
  )) as Response;
  const back = new URL(approved.headers.get('Location')!);
  const subscriptionId = back.searchParams.get('subscription_id')!;
  expect(await get(successPage.loader, `${back.pathname}${back.search}`, { cookie })).toMatchObject(
    { ok: true },
  );
  expect(await planOf(user.id)).toBe('monthly');
  expect((await rowOf(subscriptionId)).status).toBe('active');
  return { user, subscriptionId, cookie, email };
}

describe('a lost suspension webhook', () => {
  it('is corrected by the reconciliation within the hour: the member is no longer paid', async () => {
    const admin = await member('admin');
    const { user, subscriptionId } = await activePayPalMember();

    // Suspended at PayPal while its webhook cannot reach the app.
    writeKnobs(env().DATA_DIR, { MOCK_WEBHOOK_FAIL: true });
    const simulated = pageResult(
      await settle(
        post(
          billingDemo.action,
          '/admin/billing-demo',
          { provider: 'paypal', subscriptionId, what: 'halt' },
          { cookie: admin.cookie, as: 'form' },
        ),
      ),
    );
    expect(simulated.status).toBe(200);
    expect((await paypal.fetchSubscription(subscriptionId)).status).toBe('suspended');
    expect(await planOf(user.id)).toBe('monthly');

    // The worker's reconciliation: a round a minute, for an hour and one more round.
    const start = Date.now();
    let correctedAt: number | undefined;
    for (let minute = 1; minute <= 61 && correctedAt === undefined; minute += 1) {
      await reconcileSubscriptions(new Date(start + minute * 60_000), 60);
      if ((await planOf(user.id)) === 'free') correctedAt = minute;
    }
    expect(correctedAt).toBeDefined();
    expect(correctedAt).toBeLessThanOrEqual(61);
    expect((await rowOf(subscriptionId)).status).toBe('expired');
    expect(await planOf(user.id)).toBe('free');
  });
});

describe('the reconciliation’s pace', () => {
  it('re-checks each live subscription once an hour, a share each minute, never all at once', async () => {
    const { user } = await member();
    const ids = Array.from({ length: 120 }, () => newId());
    const { subscriptions } = tables;
    for (const id of ids)
      await database()
        .insert(subscriptions)
        .values({
          id,
          userId: user.id,
          provider: 'paypal',
          providerSubscriptionId: `I-PACE${id}`,
          plan: 'monthly',
          status: 'active',
          amountCents: 800,
          nextBillingAt: new Date(Date.now() + 20 * 86_400_000),
        });
    const live = (
      await database()
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(eq(subscriptions.status, 'active'))
    ).length;
    const share = Math.ceil(live / 60);

    // Three hours of rounds, a minute apart, after everything was last checked.
    const t0 = Date.now() + 2 * 3_600_000;
    const checkedAt = new Map<string, number[]>(ids.map((id) => [id, []]));
    for (let minute = 0; minute < 180; minute += 1) {
      const round = await takeSubscriptionsToReconcile(new Date(t0 + minute * 60_000), 60);
      expect(round.length).toBeLessThanOrEqual(share);
      for (const row of round) checkedAt.get(row.id)?.push(minute);
    }
    for (const [, minutes] of checkedAt) {
      expect(minutes.length).toBe(3);
      expect(minutes[0]).toBeLessThan(60);
      expect(minutes[1]! - minutes[0]!).toBeGreaterThanOrEqual(60);
      expect(minutes[1]! - minutes[0]!).toBeLessThanOrEqual(61);
      expect(minutes[2]! - minutes[1]!).toBeGreaterThanOrEqual(60);
      expect(minutes[2]! - minutes[1]!).toBeLessThanOrEqual(61);
    }
  });
});

describe('a provider state read just before the member cancelled (issue 42)', () => {
  it('does not bring the subscription back, so a new checkout right after is not refused', async () => {
    const { subscriptionId, cookie, email } = await activePayPalMember();
    // A webhook's sync (or the reconciliation) reads PayPal while the subscription is active...
    const row = await rowOf(subscriptionId);
    const stale = await paypal.fetchSubscription(subscriptionId);
    expect(stale.status).toBe('active');
    // ...the member cancels meanwhile...
    const cancelled = (await post(
      apiPaypalCancel.action,
      '/api/paypalcancel',
      { id: subscriptionId },
      { cookie },
    )) as Response;
    expect(cancelled.status).toBe(200);
    // ...and the sync then applies what it read.
    await applyActiveState(row, stale.plan!, stale);
    expect((await rowOf(subscriptionId)).status).toBe('cancelled');
    const checkout = (await post(
      apiRazorpayCreate.action,
      '/api/razorpaycreate',
      { plan: 'yearly', email },
      { cookie },
    )) as Response;
    expect(checkout.status, await checkout.clone().text()).toBe(200);
  });
});
