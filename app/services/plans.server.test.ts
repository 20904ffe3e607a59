import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_SETTINGS } from '~/domain/plans';
import { planSettingsSchema } from './plans.server';

describe('the plan settings an operator may save', () => {
  it('stay within the product’s hard maxima and take no negative or zero price', () => {
    const valid = (change: (settings: typeof DEFAULT_PLAN_SETTINGS) => void) => {
      const settings = structuredClone(DEFAULT_PLAN_SETTINGS);
      change(settings);
      return planSettingsSchema.safeParse(settings).success;
    };
    expect(valid(() => {})).toBe(true);
    expect(valid((s) => (s.monthly.prices.paypal.amountCents = -100))).toBe(false);
    expect(valid((s) => (s.yearly.prices.razorpay.amountCents = 0))).toBe(false);
    expect(valid((s) => (s.free.topics = 11))).toBe(false);
    expect(valid((s) => (s.free.topics = 0))).toBe(false);
    expect(valid((s) => (s.monthly.pastedChars = 100_001))).toBe(false);
  });
});
