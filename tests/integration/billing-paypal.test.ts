import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approveMockPayPal, editMockPayPalSubscription } from '../../mocks/paypal';
import { writeKnobs } from '../../mocks/knobs';
import { get, post, settle } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import * as apiPaypal from '~/routes/api/api.paypal';
import * as apiDetails from '~/routes/api/api.paypaldetails';
import * as apiCancel from '~/routes/api/api.paypalcancel';
import * as apiSubscription from '~/routes/api/api.subscriptiondetail';
import * as paymentPage from '~/routes/member/payment';
import * as successPage from '~/routes/member/success';
import * as demoApproval from '~/routes/public/demo.paypal.approve';
import { createSession } from '~/utils/auth.server';
import { database, first, tables } from '~/utils/database.server';
import { env, resetEnvForTests } from '~/utils/env.server';
import { startVendorMocks } from '~/utils/mocks.server';
import { forgetPlans, PLANS_KEY } from '~/services/plans.server';
import { writeSetting } from '~/models/settings.server';
import { DEFAULT_PLAN_SETTINGS } from '~/domain/plans';
import { subscriptionSummary } from '~/services/billing/subscription-view.server';
import { endPaidPeriods } from '~/services/billing/reconciliation.server';
import { recordCancellation } from '~/models/subscriptions.server';

/**
 * PayPal checkout through the real SDK against the HTTP mock: the server
 * decides from PayPal's word, every path is idempotent, and nothing a client
 * says about plan, price or user counts.
 */
beforeAll(() => {
  startVendorMocks();
});
afterEach(() => {
  fs.rmSync(path.join(env().DATA_DIR, 'mock-knobs.json'), { force: true });
});

let counter = 0;
async function member() {
  counter += 1;
  const user = await createUser({
    email: `payer-${counter}@example.com`,
    name: `Payer ${counter}`,
    password: 'long-enough-password',
    plan: 'free',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

const checkout = {
  planId: 'monthly',
  email: 'payer@example.com',
  name: 'Ada',
  lastName: 'Lovelace',
  post: '10115',
  address: '1 Analytical Street',
  country: 'DE',
};

async function json(response: unknown) {
  const res = response as Response;
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Starts a checkout as the member and approves it on the demo approval page. */
async function subscribe(cookie: string, body: Record<string, unknown> = checkout) {
  const started = await json(await post(apiPaypal.action, '/api/paypal', body, { cookie }));
  expect(started.status).toBe(200);
  const links = started.body.links as { rel: string; href: string }[];
  const approve = new URL(links.find((link) => link.rel === 'approve')!.href);
  const returned = new URL((await approveMockPayPal(approve.searchParams.get('ba_token')!))!);
  return returned.searchParams.get('subscription_id')!;
}

const planOf = async (userId: string) => {
  const { users } = tables;
  return (await first(
    database().select({ plan: users.plan }).from(users).where(eq(users.id, userId)),
  ))!.plan;
};
const receiptsOf = (userId: string) => {
  const { receipts } = tables;
  return database().select().from(receipts).where(eq(receipts.userId, userId));
};
const mailTo = (email: string) => {
  const { outboxEmails } = tables;
  return database().select().from(outboxEmails).where(eq(outboxEmails.to, email));
};
const subscriptionOf = async (providerSubscriptionId: string) => {
  const { subscriptions } = tables;
  return (await first(
    database()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId)),
  ))!;
};

describe('PayPal checkout', () => {
  it('activates once when the return URL is opened three times at once: one receipt, one email', async () => {
    const { user, cookie } = await member();
    const subscriptionId = await subscribe(cookie);
    expect(await planOf(user.id)).toBe('free');

    const url = `/success?plan=monthly&method=paypal&subscription_id=${subscriptionId}`;
    const pages = await Promise.all(
      [1, 2, 3].map(() => settle(get(successPage.loader, url, { cookie }))),
    );
    for (const page of pages) expect(page).toMatchObject({ ok: true });
    expect(await planOf(user.id)).toBe('monthly');
    expect(await receiptsOf(user.id)).toHaveLength(1);
    expect((await receiptsOf(user.id))[0]).toMatchObject({ amountCents: 800, currency: 'USD' });
    expect(
      (await mailTo(checkout.email)).filter((mail) => mail.subject.includes('receipt')),
    ).toHaveLength(1);

    // The API twin, later, changes nothing more.
    const again = await json(
      await post(
        apiDetails.action,
        '/api/paypaldetails',
        { subscriberId: subscriptionId },
        { cookie },
      ),
    );
    // PayPal's own subscription object, in PayPal's REST shape.
    expect(again.body).toMatchObject({
      id: subscriptionId,
      status: 'ACTIVE',
      plan_id: 'P-DEMO-MONTHLY',
    });
    expect(again.body.billing_info).toMatchObject({ last_payment: { amount: { value: '8.00' } } });
    expect(await receiptsOf(user.id)).toHaveLength(1);
  });

  it('keeps a member at the price they subscribed at when the price changes (ADR 55)', async () => {
    const activate = async (cookie: string, subscriptionId: string) => {
      const url = `/success?plan=monthly&method=paypal&subscription_id=${subscriptionId}`;
      expect(await settle(get(successPage.loader, url, { cookie }))).toMatchObject({ ok: true });
    };
    const earlier = await member();
    const earlierId = await subscribe(earlier.cookie);
    await activate(earlier.cookie, earlierId);
    try {
      await writeSetting(
        PLANS_KEY,
        JSON.stringify({
          ...DEFAULT_PLAN_SETTINGS,
          monthly: {
            ...DEFAULT_PLAN_SETTINGS.monthly,
            prices: {
              ...DEFAULT_PLAN_SETTINGS.monthly.prices,
              paypal: { amountCents: 1200, currency: 'USD' },
            },
          },
        }),
      );
      forgetPlans();
      const later = await member();
      const laterId = await subscribe(later.cookie);
      await activate(later.cookie, laterId);
      // The earlier member's subscription read again (a return, a webhook, the reconciliation).
      await activate(earlier.cookie, earlierId);

      const earlierRow = await subscriptionOf(earlierId);
      const laterRow = await subscriptionOf(laterId);
      expect([earlierRow.amountCents, laterRow.amountCents]).toEqual([800, 1200]);
      expect(subscriptionSummary(earlierRow, null).amount).toBe('$8.00 USD');
      expect(subscriptionSummary(laterRow, null).amount).toBe('$12.00 USD');
    } finally {
      await database().delete(tables.settings).where(eq(tables.settings.key, PLANS_KEY));
      forgetPlans();
    }
  });

  it("refuses another member's subscription id, and an unknown one", async () => {
    const owner = await member();
    const subscriptionId = await subscribe(owner.cookie);
    const other = await member();
    for (const id of [subscriptionId, 'I-DOESNOTEXIST']) {
      const refused = await json(
        await post(
          apiDetails.action,
          '/api/paypaldetails',
          { subscriberId: id },
          {
            cookie: other.cookie,
          },
        ),
      );
      expect(refused).toMatchObject({ status: 404, body: { success: false } });
      const page = await settle(
        get(successPage.loader, `/success?subscription_id=${id}`, { cookie: other.cookie }),
      );
      expect((page as Response).status).toBe(404);
    }
    expect(await planOf(other.user.id)).toBe('free');
    expect(await planOf(owner.user.id)).toBe('free');
  });

  it('ignores the plan, type, uid, user and price a client sends', async () => {
    const { user, cookie } = await member();
    const victim = await member();
    const subscriptionId = await subscribe(cookie, {
      ...checkout,
      uid: victim.user.id,
      user: victim.user.id,
      type: 'yearly',
      price: 0,
    });
    const details = await json(
      await post(
        apiDetails.action,
        '/api/paypaldetails',
        { subscriberId: subscriptionId, uid: victim.user.id, plan: 'yearly' },
        { cookie },
      ),
    );
    expect(details.body).toMatchObject({ status: 'ACTIVE', plan_id: 'P-DEMO-MONTHLY' });
    expect(await planOf(user.id)).toBe('monthly');
    expect(await planOf(victim.user.id)).toBe('free');
    const row = await subscriptionOf(subscriptionId);
    expect(row).toMatchObject({ userId: user.id, plan: 'monthly', amountCents: 800 });
  });

  it('does not activate a subscription PayPal has not approved', async () => {
    const { user, cookie } = await member();
    const started = await json(await post(apiPaypal.action, '/api/paypal', checkout, { cookie }));
    const { subscriptions } = tables;
    const row = (await first(
      database().select().from(subscriptions).where(eq(subscriptions.userId, user.id)).limit(1),
    ))!;
    expect(started.status).toBe(200);
    const pending = await json(
      await post(
        apiDetails.action,
        '/api/paypaldetails',
        { subscriberId: row.providerSubscriptionId },
        { cookie },
      ),
    );
    expect(pending).toMatchObject({ status: 409, body: { message: 'Payment is still pending' } });
    expect(await planOf(user.id)).toBe('free');
  });

  it('gives a clear message and stores nothing when PayPal fails on create or on verify', async () => {
    const { user, cookie } = await member();
    writeKnobs(env().DATA_DIR, { MOCK_PAYPAL_FAIL: 'create' });
    const failed = await json(await post(apiPaypal.action, '/api/paypal', checkout, { cookie }));
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/not available right now/);
    const { subscriptions } = tables;
    expect(
      await database().select().from(subscriptions).where(eq(subscriptions.userId, user.id)),
    ).toEqual([]);

    writeKnobs(env().DATA_DIR, {});
    const subscriptionId = await subscribe(cookie);
    writeKnobs(env().DATA_DIR, { MOCK_PAYPAL_FAIL: 'get' });
    const unverified = await json(
      await post(
        apiDetails.action,
        '/api/paypaldetails',
        { subscriberId: subscriptionId },
        { cookie },
      ),
    );
    expect(unverified.status).toBe(502);
    expect(await planOf(user.id)).toBe('free');
    expect(await receiptsOf(user.id)).toEqual([]);

    // Once PayPal answers again, the same return URL activates.
    writeKnobs(env().DATA_DIR, {});
    const verified = await json(
      await post(
        apiDetails.action,
        '/api/paypaldetails',
        { subscriberId: subscriptionId },
        { cookie },
      ),
    );
    expect(verified.body).toMatchObject({ id: subscriptionId, status: 'ACTIVE' });
  });

  it('cancels at PayPal and keeps the plan until the paid period ends', async () => {
    const { user, cookie } = await member();
    const subscriptionId = await subscribe(cookie);
    await post(
      apiDetails.action,
      '/api/paypaldetails',
      { subscriberId: subscriptionId },
      { cookie },
    );
    const cancelled = await json(await post(apiCancel.action, '/api/paypalcancel', {}, { cookie }));
    expect(cancelled.body).toMatchObject({ success: true, message: 'Subscription Cancelled' });
    expect(await planOf(user.id)).toBe('monthly');
    const detail = await json(
      await post(apiSubscription.action, '/api/subscriptiondetail', {}, { cookie }),
    );
    expect(detail.body).toMatchObject({
      method: 'paypal',
      status: 'cancelled',
      session: { id: subscriptionId, status: 'CANCELLED' },
    });
    expect(new Date(detail.body.paidUntil as string).getTime()).toBeGreaterThan(Date.now());
  });

  it('ends the paid period once: a cancellation read before the member cancelled does not reopen it', async () => {
    const { user, cookie } = await member();
    const subscriptionId = await subscribe(cookie);
    await post(
      apiDetails.action,
      '/api/paypaldetails',
      { subscriberId: subscriptionId },
      { cookie },
    );
    expect(await planOf(user.id)).toBe('monthly');
    const row = await subscriptionOf(subscriptionId);
    await post(apiCancel.action, '/api/paypalcancel', {}, { cookie });
    const { subscriptions } = tables;
    await database()
      .update(subscriptions)
      .set({ paidUntil: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.id, row.id));
    await endPaidPeriods();
    expect(await planOf(user.id)).toBe('free');
    // The cancellation webhook's job, which read the row while it was still active, writes last.
    await recordCancellation(row.id, new Date(), row.nextBillingAt!);
    await endPaidPeriods();
    expect(await subscriptionOf(subscriptionId)).toMatchObject({ status: 'expired' });
    expect(await planOf(user.id)).toBe('free');
  });

  it('refuses a subscription on a plan that is not configured', async () => {
    const { user, cookie } = await member();
    const subscriptionId = await subscribe(cookie);
    await editMockPayPalSubscription(subscriptionId, (subscription) => {
      subscription.plan_id = 'P-SOMEONE-ELSES-PLAN';
    });
    const refused = await json(
      await post(
        apiDetails.action,
        '/api/paypaldetails',
        { subscriberId: subscriptionId },
        { cookie },
      ),
    );
    expect(refused).toMatchObject({
      status: 400,
      body: { message: 'This subscription is not for one of our plans' },
    });
    expect(await planOf(user.id)).toBe('free');
  });

  it('retries a failed cancel, and says so when PayPal keeps failing', async () => {
    const { user, cookie } = await member();
    const subscriptionId = await subscribe(cookie);
    await post(
      apiDetails.action,
      '/api/paypaldetails',
      { subscriberId: subscriptionId },
      { cookie },
    );
    writeKnobs(env().DATA_DIR, { MOCK_PAYPAL_FAIL: 'cancel' });
    const failed = await json(await post(apiCancel.action, '/api/paypalcancel', {}, { cookie }));
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/could not cancel/);
    const row = await subscriptionOf(subscriptionId);
    expect(row.status).toBe('active');
    expect(await planOf(user.id)).toBe('monthly');
  });

  it('refuses anonymous callers', async () => {
    for (const route of [apiPaypal, apiDetails, apiCancel, apiSubscription]) {
      const response = (await settle(post(route.action, '/api/x', checkout))) as Response;
      expect(response.status).toBe(401);
    }
  });

  it('outside demo mode: no demo approval page, and no PayPal button without credentials', async () => {
    const { cookie } = await member();
    const demo = await settle(get(paymentPage.loader, '/payment?plan=monthly', { cookie }));
    expect(demo).toMatchObject({ providers: ['paypal', 'razorpay'] });
    const saved = { DEMO_MODE: process.env.DEMO_MODE, KEY: process.env.ANTHROPIC_API_KEY };
    process.env.DEMO_MODE = 'false';
    process.env.ANTHROPIC_API_KEY = 'sk-ant-configured';
    resetEnvForTests();
    try {
      const page = await settle(get(paymentPage.loader, '/payment?plan=monthly', { cookie }));
      expect(page).toMatchObject({ providers: [] });
      const approval = await settle(
        get(demoApproval.loader, '/demo/paypal/approve?ba_token=BA-ANY', { cookie }),
      );
      expect((approval as Response).status).toBe(404);
    } finally {
      process.env.DEMO_MODE = saved.DEMO_MODE;
      if (saved.KEY === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved.KEY;
      resetEnvForTests();
    }
  });
});
