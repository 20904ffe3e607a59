import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '~/domain/plans';
import { database, tables } from '~/utils/database.server';
import {
  DEFAULT_PLAN_FORM,
  postPlanSettings,
  twoWebProcessesForThisFile,
  type SignedIn,
  type WebProcess,
} from '../support/settings-nodes';
import { until } from '../support/processes';

/**
 * GET /api/plans (issue 40): the plans, their prices at each provider and their limits, as the
 * operator set them, to anyone, as /pricing shows them; a change saved on one web process is
 * answered by the other without a restart, and no provider plan id leaves the server.
 */
const nodes = twoWebProcessesForThisFile();
let first: WebProcess;
let second: WebProcess;
let owner: SignedIn;
beforeAll(() => {
  ({ first, second, owner } = nodes);
});

interface PlanAnswer {
  id: string;
  name: string;
  period: string | null;
  trialDays: number;
  prices: Record<
    'paypal' | 'razorpay',
    { amountCents: number; currency: string; formatted: string; checkout: boolean }
  >;
  limits: Record<string, unknown>;
}

async function plansAt(web: WebProcess): Promise<PlanAnswer[]> {
  const response = await fetch(`${web.base}/api/plans`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  return (await response.json()) as PlanAnswer[];
}

const saveSettings = (web: WebProcess, form: Record<string, string>) =>
  postPlanSettings(web, owner.cookie, { ...DEFAULT_PLAN_FORM, ...form });

const usd = (amountCents: number, formatted: string) => ({
  amountCents,
  currency: 'USD',
  formatted,
  checkout: true,
});

describe('GET /api/plans', () => {
  it('answers the product’s plans to anyone, without a session', async () => {
    const answer = await plansAt(first);
    expect(answer.map(({ limits: _limits, ...plan }) => plan)).toEqual([
      {
        id: 'free',
        name: 'Free Plan',
        period: null,
        trialDays: 0,
        prices: {
          paypal: { amountCents: 0, currency: 'USD', formatted: '$0', checkout: false },
          razorpay: { amountCents: 0, currency: 'USD', formatted: '$0', checkout: false },
        },
      },
      {
        id: 'monthly',
        name: 'Monthly Plan',
        period: 'month',
        trialDays: 0,
        prices: { paypal: usd(800, '$8 / month'), razorpay: usd(800, '$8 / month') },
      },
      {
        id: 'yearly',
        name: 'Yearly Plan',
        period: 'year',
        trialDays: 0,
        prices: { paypal: usd(8800, '$88 / year'), razorpay: usd(8800, '$88 / year') },
      },
    ]);
    expect(answer[0]!.limits).toMatchObject({
      topicCounts: [5],
      courseTypes: ['text'],
      material: { documents: false, pastedChars: 20_000 },
      tutorQuestionsPerDay: 20,
      lessonsPerTopic: 4,
      exports: ['md', 'pdf'],
    });
    expect(answer[1]!.limits).toMatchObject({
      topicCounts: [5, 10],
      courseTypes: ['text', 'video'],
      material: { documents: true, pastedChars: 100_000 },
      tutorQuestionsPerDay: 200,
      lessonsPerTopic: 4,
      exports: ['md', 'pdf', 'scorm'],
    });
    // Every limit a plan has, whatever limits there are.
    for (const plan of answer)
      expect(plan.limits).toEqual(
        JSON.parse(JSON.stringify(DEFAULT_PLANS[plan.id as keyof typeof DEFAULT_PLANS].limits)),
      );
  });

  it('answers a price the admin saves, on every web process, and never a provider plan id', async () => {
    await plansAt(second); // read (and kept a moment) before the change
    const saved = await saveSettings(first, {
      monthlyPrice: '12',
      monthlyCurrency: 'USD',
      monthlyRazorpayPrice: '699',
      monthlyRazorpayCurrency: 'INR',
      monthlyTrialDays: '7',
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('Plans saved');

    const answer = await until(async () => {
      const plans = await plansAt(second);
      return plans[1]!.prices.paypal.amountCents === 1200 ? plans : undefined;
    }, 10_000);
    expect(answer[1]).toMatchObject({
      id: 'monthly',
      trialDays: 7,
      prices: {
        paypal: { amountCents: 1200, currency: 'USD', formatted: '$12 / month', checkout: true },
        razorpay: {
          amountCents: 69_900,
          currency: 'INR',
          formatted: '₹699 / month',
          checkout: true,
        },
      },
    });
    expect(answer[2]!.prices.paypal).toEqual(usd(8800, '$88 / year'));

    // The settings hold the provider plans made for the new prices; the answer holds none.
    const [row] = await database()
      .select()
      .from(tables.settings)
      .where(eq(tables.settings.key, 'plans'));
    const stored = JSON.parse(row!.value) as {
      monthly: { prices: Record<string, { planId?: string }> };
    };
    const planIds = Object.values(stored.monthly.prices).map((price) => price.planId);
    expect(planIds.every(Boolean)).toBe(true);
    const text = JSON.stringify(answer);
    for (const id of planIds) expect(text).not.toContain(id);
    expect(text).not.toContain('planId');
  });

  it('answers 405 to a POST, as JSON', async () => {
    const response = await fetch(`${first.base}/api/plans`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: first.base },
      body: '{}',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toEqual({
      success: false,
      message: 'Method Not Allowed',
      code: 'method_not_allowed',
    });
  });
});
