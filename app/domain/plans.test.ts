import { describe, expect, it } from 'vitest';
import { flashcardsIncluded, formatPlanPrice, PLAN_LIST, planButton } from './plans';

describe('the plan definitions', () => {
  it('match the product: names, prices and periods', () => {
    expect(PLAN_LIST.map((p) => [p.id, p.name, p.cost, p.period, p.amountCents])).toEqual([
      ['free', 'Free Plan', 0, null, 0],
      ['monthly', 'Monthly Plan', 8, 'month', 800],
      ['yearly', 'Yearly Plan', 88, 'year', 8800],
    ]);
    expect(PLAN_LIST.map(formatPlanPrice)).toEqual(['$0', '$8 / month', '$88 / year']);
  });

  it('give each plan five lines, striking out video for free only', () => {
    for (const plan of PLAN_LIST) expect(plan.features).toHaveLength(5);
    const struck = PLAN_LIST.flatMap((p) =>
      p.features.filter((f) => !f.included).map((f) => `${p.id}: ${f.text}`),
    );
    expect(struck).toEqual(['free: Video & Theory Course']);
    expect(PLAN_LIST.map((p) => p.limits.topicCounts)).toEqual([[5], [5, 10], [5, 10]]);
    expect(PLAN_LIST.map((p) => p.limits.courseTypes)).toEqual([
      ['text'],
      ['text', 'video'],
      ['text', 'video'],
    ]);
  });
});

describe('the pricing button', () => {
  it('says Get Started to the checkout for visitors and free members', () => {
    for (const member of [null, { plan: 'free' as const }]) {
      expect(planButton('monthly', member)).toEqual({
        label: 'Get Started',
        to: '/payment?plan=monthly',
      });
      expect(planButton('yearly', member)).toEqual({
        label: 'Get Started',
        to: '/payment?plan=yearly',
      });
    }
    expect(planButton('free', null)).toEqual({ label: 'Get Started', to: '/signup' });
    expect(planButton('free', { plan: 'free' })).toEqual({ label: 'Get Started', to: '/create' });
  });

  it('says Modify Plan to the subscription for paid members, on every card', () => {
    for (const plan of ['free', 'monthly', 'yearly'] as const) {
      expect(planButton(plan, { plan: 'yearly' })).toEqual({
        label: 'Modify Plan',
        to: '/subscription',
      });
    }
  });
});

describe('flashcards', () => {
  it('are part of every plan (ADR 0033)', () => {
    expect(PLAN_LIST.map((plan) => [plan.id, flashcardsIncluded(plan.id)])).toEqual([
      ['free', true],
      ['monthly', true],
      ['yearly', true],
    ]);
  });
});
