import { describe, expect, it } from 'vitest';
import { clockOf } from './review-clock.server';

const realNow = new Date('2026-11-26T10:00:00Z');

describe('the review clock', () => {
  it('takes a requested instant in demo mode only', () => {
    const requested = '2026-11-27T10:00:00.000Z';
    const demo = clockOf({ demo: true, requested, cookieHeader: null, realNow });
    expect([demo.now.toISOString(), demo.set]).toEqual([requested, true]);
    const real = clockOf({ demo: false, requested, cookieHeader: null, realNow });
    expect([real.now, real.set]).toEqual([realNow, undefined]);
  });

  it('ignores what is not an instant', () => {
    for (const requested of ['tomorrow', '', undefined, 42, ['2026-11-27']])
      expect(clockOf({ demo: true, requested, cookieHeader: null, realNow })).toEqual({
        now: realNow,
        timeZone: 'UTC',
      });
  });

  it("reads the member's time zone from the cookie", () => {
    expect(
      clockOf({ demo: false, requested: null, cookieHeader: 'tz=Asia%2FTokyo', realNow }).timeZone,
    ).toBe('Asia/Tokyo');
  });
});
