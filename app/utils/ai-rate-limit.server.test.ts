import { describe, expect, it } from 'vitest';
import { AiRateLimited, wakeAfter } from './ai-rate-limit.server';

describe('wakeAfter', () => {
  it('never wakes a refused job before the budget has room', () => {
    expect(wakeAfter(5_000, () => 0)).toBe(5_000);
    expect(wakeAfter(1, () => 0)).toBe(1);
  });

  it('spreads jobs refused together over up to a second, less for short waits', () => {
    expect(wakeAfter(5_000, () => 0.999)).toBe(5_999);
    expect(wakeAfter(400, () => 0.999)).toBe(500);
    const wakes = new Set(Array.from({ length: 50 }, () => wakeAfter(10_000)));
    expect(wakes.size).toBeGreaterThan(10);
  });
});

describe('AiRateLimited', () => {
  it('says which limit refused and for how long', () => {
    expect(new AiRateLimited(1200, 'budget').message).toMatch(/AI_REQUESTS_PER_MINUTE.*1200 ms/);
    expect(new AiRateLimited(3000, 'provider').message).toMatch(/provider.*3000 ms/);
  });
});
