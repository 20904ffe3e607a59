import { describe, expect, it } from 'vitest';
import {
  aiLessonLimit,
  courseExportRefusal,
  DEFAULT_PLAN_SETTINGS,
  DEFAULT_PLANS,
  describePlanChange,
  flashcardsIncluded,
  formatPlanPrice,
  planButton,
  planList,
  planRefusal,
  planTable,
  topicCountChoices,
  trialText,
} from './plans';

const PLAN_LIST = planList(DEFAULT_PLANS);

describe('the plan definitions', () => {
  it('match the product: names, prices and periods', () => {
    expect(PLAN_LIST.map((p) => [p.id, p.name, p.cost, p.period, p.amountCents])).toEqual([
      ['free', 'Free Plan', 0, null, 0],
      ['monthly', 'Monthly Plan', 8, 'month', 800],
      ['yearly', 'Yearly Plan', 88, 'year', 8800],
    ]);
    expect(PLAN_LIST.map((plan) => formatPlanPrice(plan))).toEqual([
      '$0',
      '$8 / month',
      '$88 / year',
    ]);
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

describe('plans from the operator’s settings (ADR 0055)', () => {
  const set = (change: (settings: typeof DEFAULT_PLAN_SETTINGS) => void) => {
    const settings = structuredClone(DEFAULT_PLAN_SETTINGS);
    change(settings);
    return planTable(settings);
  };

  it('take the price, the topics and the material limits set', () => {
    const table = set((s) => {
      s.monthly.prices.paypal.amountCents = 1250;
      s.free.topics = 6;
      s.free.pastedChars = 5_000;
    });
    expect(formatPlanPrice(table.monthly)).toBe('$12.50 / month');
    expect(table.monthly.cost).toBe(12.5);
    expect(table.free.features[0].text).toBe('Generate 6 Sub-Topics');
    expect(table.free.limits.topicCounts).toEqual([5, 6]);
    expect(table.free.limits.material.pastedChars).toBe(5_000);
    expect(topicCountChoices(table)).toEqual([5, 6, 10]);
    expect(planRefusal(table.free, { topicCount: 6, type: 'text' })).toBeNull();
    expect(planRefusal(table.free, { topicCount: 7, type: 'text' })).toBe('For paid members only');
  });

  it('take the lessons per topic and the downloads set', () => {
    expect(aiLessonLimit(DEFAULT_PLANS.free)).toBe(20);
    expect(courseExportRefusal(DEFAULT_PLANS.free, 'pdf')).toBeNull();
    expect(courseExportRefusal(DEFAULT_PLANS.free, 'scorm')).toBe('For paid members only');
    expect(courseExportRefusal(DEFAULT_PLANS.monthly, 'scorm')).toBeNull();
    const table = set((s) => {
      s.free.lessonsPerTopic = 2;
      s.free.exports = ['md'];
      s.yearly.exports = ['md', 'pdf'];
    });
    expect(aiLessonLimit(table.free)).toBe(10);
    expect(planRefusal(table.free, { topicCount: 5, type: 'text', aiLessons: 11 })).toBe(
      'The AI writes at most 10 lessons of a course on your plan',
    );
    expect(courseExportRefusal(table.free, 'pdf')).toBe('For paid members only');
    // A paid plan the operator left it out of promises no upgrade.
    expect(courseExportRefusal(table.yearly, 'scorm')).toBe(
      'Your plan does not include this download',
    );
  });

  it('refuse a sixth topic at five, as the product does by default', () => {
    expect(planRefusal(DEFAULT_PLANS.free, { topicCount: 5, type: 'text' })).toBeNull();
    expect(planRefusal(DEFAULT_PLANS.free, { topicCount: 6, type: 'text' })).toBe(
      'For paid members only',
    );
    expect(topicCountChoices(DEFAULT_PLANS)).toEqual([5, 10]);
  });
});

describe('a change of the plans', () => {
  it('is described field by field, as the audit entries on the settings page show it', () => {
    const after = structuredClone(DEFAULT_PLAN_SETTINGS);
    after.monthly.prices.paypal.amountCents = 1250;
    after.free.documents = true;
    after.yearly.pastedChars = 50_000;
    after.yearly.lessonsPerTopic = 3;
    after.free.exports = [];
    expect(describePlanChange(DEFAULT_PLAN_SETTINGS, after)).toEqual([
      'Free Plan documents: no → yes',
      'Free Plan downloads: Markdown, PDF → none',
      'Monthly Plan price: $8 → $12.50',
      'Yearly Plan pasted characters: 100,000 → 50,000',
      'Yearly Plan lessons per topic: 4 → 3',
    ]);
    expect(describePlanChange(after, after)).toEqual([]);
  });
});

describe('prices per provider (ADR 0063)', () => {
  it('show each provider’s price in its currency, and a trial', () => {
    const settings = structuredClone(DEFAULT_PLAN_SETTINGS);
    settings.monthly.prices.razorpay = { amountCents: 69_900, currency: 'INR' };
    settings.monthly.trialDays = 7;
    const table = planTable(settings);
    expect(formatPlanPrice(table.monthly, 'paypal')).toBe('$8 / month');
    expect(formatPlanPrice(table.monthly, 'razorpay')).toBe('₹699 / month');
    expect(trialText(table.monthly)).toBe('7-day free trial');
    expect(trialText(table.yearly)).toBeNull();
    expect(describePlanChange(DEFAULT_PLAN_SETTINGS, settings)).toEqual([
      'Monthly Plan Razorpay price: $8 → ₹699',
      'Monthly Plan trial days: 0 → 7',
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
