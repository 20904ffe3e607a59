import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeKnobs } from '../../mocks/knobs';
import { approveMockPayPal, listMockPayPalPlans, mockPayPalApproval } from '../../mocks/paypal';
import { listMockRazorpayPlans, simulateRazorpay } from '../../mocks/razorpay';
import { dashboardFigures } from '~/models/admin.server';
import { listReceipts } from '~/models/subscriptions.server';
import { createUser, type User } from '~/models/users.server';
import { confirmSubscription, startCheckout } from '~/services/billing/checkout.server';
import { startPlanChange } from '~/services/billing/plan-change.server';
import { syncSubscription } from '~/services/billing/reconciliation.server';
import { brandFormAction } from '~/services/brand.server';
import { forgetPlans, planOf, planSettings, savePlanSettings } from '~/services/plans.server';
import { env } from '~/utils/env.server';
import { startVendorMocks } from '~/utils/mocks.server';
import { DEFAULT_PLAN_FORM } from '../support/settings-nodes';

/**
 * Prices reach the providers (issue 40, ADR 0063): saving a price creates the provider plan that
 * charges it, once per price, through the mocks' real wire formats; a provider that refuses leaves
 * the settings as they were; checkouts charge the new plan in its currency; revenue keeps each
 * currency apart; what the providers show the buyer is the brand's name as the admin set it.
 */
beforeAll(() => {
  startVendorMocks();
});
afterEach(() => {
  fs.rmSync(path.join(env().DATA_DIR, 'mock-knobs.json'), { force: true });
});

let counter = 0;
async function user(role: 'member' | 'main_admin' = 'member'): Promise<User> {
  counter += 1;
  return createUser({
    email: `provider-plans-${counter}-${Date.now()}@example.com`,
    name: `Buyer ${counter}`,
    password: 'long-enough-pw',
    role,
  });
}

/** The settings form as the page sends it, with today's defaults unless changed. */
const form = (change: Record<string, string> = {}) => ({ ...DEFAULT_PLAN_FORM, ...change });

const customer = (buyer: User) => ({
  email: buyer.email,
  firstName: 'Ada',
  lastName: 'Lovelace',
  address: '1 Analytical Street',
  postalCode: '10115',
  country: 'DE',
});

async function checkout(buyer: User, provider: 'paypal' | 'razorpay') {
  const started = await startCheckout(buyer, {
    plan: 'monthly',
    provider,
    customer: customer(buyer),
    returnBase: 'http://localhost:3000',
  });
  if (!started.ok) throw new Error(started.message);
  return started.value;
}

describe('prices reach the providers', () => {
  it('create one plan per provider per price change, reuse it when the price comes back, and checkouts charge it', async () => {
    const admin = await user('main_admin');
    const before = { paypal: await listMockPayPalPlans(), razorpay: await listMockRazorpayPlans() };
    const created = async () => ({
      paypal: (await listMockPayPalPlans()).slice(before.paypal.length),
      razorpay: (await listMockRazorpayPlans()).slice(before.razorpay.length),
    });

    // A member who subscribes at today's price (the environment's demo plans).
    const earlier = await user();
    const earlierCheckout = await checkout(earlier, 'paypal');

    // Only the limits change: no provider plan.
    expect(await savePlanSettings(admin, form({ freeTopics: '6' }))).toMatchObject({ ok: true });
    expect(await created()).toEqual({ paypal: [], razorpay: [] });

    // 12 USD at PayPal with a 7-day trial, 699 INR at Razorpay.
    const twelve = form({
      monthlyPrice: '12',
      monthlyRazorpayPrice: '699',
      monthlyRazorpayCurrency: 'INR',
      monthlyTrialDays: '7',
    });
    expect(await savePlanSettings(admin, twelve)).toMatchObject({ ok: true });
    const first = await created();
    expect(first.paypal).toHaveLength(1);
    expect(first.paypal[0]).toMatchObject({
      status: 'ACTIVE',
      billing_cycles: [
        {
          tenure_type: 'TRIAL',
          frequency: { interval_unit: 'DAY', interval_count: 7 },
          total_cycles: 1,
        },
        {
          tenure_type: 'REGULAR',
          pricing_scheme: { fixed_price: { currency_code: 'USD', value: '12.00' } },
          frequency: { interval_unit: 'MONTH', interval_count: 1 },
          total_cycles: 0,
        },
      ],
    });
    expect(first.razorpay).toHaveLength(1);
    expect(first.razorpay[0]).toMatchObject({
      period: 'monthly',
      interval: 1,
      item: { amount: 69_900, currency: 'INR' },
    });
    const settings = await planSettings();
    expect(settings.monthly.prices).toEqual({
      paypal: { amountCents: 1200, currency: 'USD', planId: first.paypal[0]!.id },
      razorpay: { amountCents: 69_900, currency: 'INR', planId: first.razorpay[0]!.id },
    });
    expect(settings.yearly.prices.paypal.planId).toBeUndefined();

    // Saved again unchanged: nothing new at either provider.
    expect(await savePlanSettings(admin, twelve)).toMatchObject({ ok: true });
    expect(await created()).toEqual(first);

    // A new PayPal checkout subscribes to the new plan; the approval page and receipt say 12.
    const buyer = await user();
    const paypalCheckout = await checkout(buyer, 'paypal');
    const token = new URL(paypalCheckout.approvalUrl).searchParams.get('ba_token')!;
    expect(await mockPayPalApproval(token)).toMatchObject({
      price: '$12.00 USD every month',
      trial: '7 days free, then the first payment',
    });
    expect(paypalCheckout.provider).toMatchObject({ plan_id: first.paypal[0]!.id });
    await approveMockPayPal(token);
    const confirmed = await confirmSubscription(buyer, 'paypal', paypalCheckout.subscriptionId);
    expect(confirmed).toMatchObject({
      ok: true,
      value: { subscription: { amountCents: 1200, currency: 'USD', plan: 'monthly' } },
    });
    // In the trial: a member now, nothing paid yet.
    expect(await listReceipts(buyer.id)).toEqual([]);

    // The member who started before the change still pays 8 at the demo plan.
    const earlierToken = new URL(earlierCheckout.approvalUrl).searchParams.get('ba_token')!;
    expect(await mockPayPalApproval(earlierToken)).toMatchObject({
      price: '$8.00 USD every month',
      trial: null,
    });
    await approveMockPayPal(earlierToken);
    await confirmSubscription(earlier, 'paypal', earlierCheckout.subscriptionId);
    expect((await listReceipts(earlier.id)).map((r) => [r.amountCents, r.currency])).toEqual([
      [800, 'USD'],
    ]);

    // Razorpay: the INR plan, a trial as the subscription's start, then INR receipts.
    const indian = await user();
    const razorpay = await checkout(indian, 'razorpay');
    expect(razorpay.provider).toMatchObject({ plan_id: first.razorpay[0]!.id });
    const startAt = (razorpay.provider as { start_at: number }).start_at;
    expect(startAt * 1000 - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);
    await simulateRazorpay(razorpay.subscriptionId, 'pay');
    expect(await syncSubscription('razorpay', razorpay.subscriptionId)).toBe('activated');
    expect(await listReceipts(indian.id)).toEqual([]);
    await simulateRazorpay(razorpay.subscriptionId, 'renew');
    await syncSubscription('razorpay', razorpay.subscriptionId);
    expect((await listReceipts(indian.id)).map((r) => [r.amountCents, r.currency])).toEqual([
      [69_900, 'INR'],
    ]);

    // Back to 8 USD everywhere, then 12 again: 8 is new (the environment had it), 12 is reused.
    expect(await savePlanSettings(admin, form())).toMatchObject({ ok: true });
    const second = await created();
    expect(second.paypal).toHaveLength(2);
    expect(second.razorpay).toHaveLength(2);
    expect(await savePlanSettings(admin, twelve)).toMatchObject({ ok: true });
    expect(await created()).toEqual(second);
    expect((await planSettings()).monthly.prices.paypal.planId).toBe(first.paypal[0]!.id);
  });

  it('a provider that refuses leaves the settings unchanged, and the retry creates nothing twice', async () => {
    const admin = await user('main_admin');
    await savePlanSettings(admin, form());
    const settingsBefore = await planSettings();
    const paypalBefore = (await listMockPayPalPlans()).length;
    const razorpayBefore = (await listMockRazorpayPlans()).length;
    const fifteen = form({ monthlyPrice: '15', monthlyRazorpayPrice: '999' });

    writeKnobs(env().DATA_DIR, { MOCK_PAYPAL_FAIL: 'plan' });
    expect(await savePlanSettings(admin, fifteen)).toEqual({
      ok: false,
      status: 502,
      message:
        'PayPal did not create the Monthly Plan at $15, so nothing was saved. Please try again in a moment.',
    });
    forgetPlans();
    expect(await planSettings()).toEqual(settingsBefore);
    expect((await planOf('monthly')).amountCents).toBe(800);

    // PayPal creates its plan, Razorpay refuses: still nothing saved.
    writeKnobs(env().DATA_DIR, { MOCK_RAZORPAY_FAIL: 'plan' });
    expect(await savePlanSettings(admin, fifteen)).toMatchObject({
      ok: false,
      status: 502,
      message: expect.stringContaining('Razorpay did not create the Monthly Plan at $999'),
    });
    forgetPlans();
    expect(await planSettings()).toEqual(settingsBefore);
    expect(await listMockPayPalPlans()).toHaveLength(paypalBefore + 1);

    // Both answer: PayPal's plan of the failed save is used, not made again.
    fs.rmSync(path.join(env().DATA_DIR, 'mock-knobs.json'), { force: true });
    expect(await savePlanSettings(admin, fifteen)).toMatchObject({ ok: true });
    expect(await listMockPayPalPlans()).toHaveLength(paypalBefore + 1);
    expect(await listMockRazorpayPlans()).toHaveLength(razorpayBefore + 1);
    expect((await planOf('monthly')).prices).toEqual({
      paypal: { amountCents: 1500, currency: 'USD' },
      razorpay: { amountCents: 99_900, currency: 'USD' },
    });
  });
});

describe('revenue', () => {
  it('keeps each currency apart on the dashboard', async () => {
    const admin = await user('main_admin');
    await savePlanSettings(
      admin,
      form({ monthlyRazorpayPrice: '700', monthlyRazorpayCurrency: 'INR' }),
    );
    const start = await dashboardFigures();
    const of = (figures: typeof start, currency: string) =>
      figures.revenue.find((revenue) => revenue.currency === currency) ?? {
        recurringCents: 0,
        totalCents: 0,
      };

    const american = await user();
    const paypalCheckout = await checkout(american, 'paypal');
    await approveMockPayPal(new URL(paypalCheckout.approvalUrl).searchParams.get('ba_token')!);
    await confirmSubscription(american, 'paypal', paypalCheckout.subscriptionId);
    const indian = await user();
    const razorpay = await checkout(indian, 'razorpay');
    await simulateRazorpay(razorpay.subscriptionId, 'pay');
    await syncSubscription('razorpay', razorpay.subscriptionId);

    const after = await dashboardFigures();
    expect(of(after, 'USD').totalCents - of(start, 'USD').totalCents).toBe(800);
    expect(of(after, 'INR').totalCents - of(start, 'INR').totalCents).toBe(70_000);
    expect(of(after, 'USD').recurringCents - of(start, 'USD').recurringCents).toBe(800);
    expect(of(after, 'INR').recurringCents - of(start, 'INR').recurringCents).toBe(70_000);
    expect(after.revenue.map((revenue) => revenue.currency)).toEqual(
      [...new Set(after.revenue.map((revenue) => revenue.currency))].sort(),
    );
  });
});

describe('the brand at the providers', () => {
  it('names the seller on PayPal’s approval pages and Razorpay’s new plans as the admin set it', async () => {
    const owner = await user('main_admin');
    const NAME = 'Acme Academy';
    expect(await brandFormAction(owner, { intent: 'save-brand', name: NAME }, null)).toMatchObject({
      ok: true,
    });
    try {
      // A new price: Razorpay's plan for it says whose plan it is.
      const razorpayBefore = (await listMockRazorpayPlans()).length;
      expect(
        await savePlanSettings(
          owner,
          form({ yearlyRazorpayPrice: '7999', yearlyRazorpayCurrency: 'INR' }),
        ),
      ).toMatchObject({ ok: true });
      const made = (await listMockRazorpayPlans()).slice(razorpayBefore);
      expect(made).toHaveLength(1);
      expect(made[0]!.item).toMatchObject({
        amount: 799_900,
        currency: 'INR',
        description: `Yearly Plan of ${NAME}`,
      });

      // PayPal got the name in the subscription's application_context.brand_name: its approval
      // page (the mock's) names the seller.
      const buyer = await user();
      const started = await checkout(buyer, 'paypal');
      const token = new URL(started.approvalUrl).searchParams.get('ba_token')!;
      expect(await mockPayPalApproval(token)).toMatchObject({ brandName: NAME, revision: false });

      // And in the revision's, when the member moves to the other plan.
      await approveMockPayPal(token);
      await confirmSubscription(buyer, 'paypal', started.subscriptionId);
      const change = await startPlanChange(buyer, 'http://localhost:3000', 'yearly');
      if (!change.ok) throw new Error(change.message);
      const revision = new URL(change.value.approvalUrl).searchParams.get('ba_token')!;
      expect(await mockPayPalApproval(revision)).toMatchObject({ brandName: NAME, revision: true });
    } finally {
      // Back to the environment's name for whatever runs after.
      await brandFormAction(owner, { intent: 'save-brand', name: '' }, null);
    }
  });
});
