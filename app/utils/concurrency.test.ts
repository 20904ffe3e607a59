import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from './concurrency';

describe('concurrencyLimit', () => {
  it('runs at most the limit at once, all of them in the end, failures included', async () => {
    const run = concurrencyLimit(2);
    let active = 0;
    let peak = 0;
    const task = (fail: boolean) => async () => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 10));
      active -= 1;
      if (fail) throw new Error('failed');
      return 'done';
    };
    const results = await Promise.allSettled(
      Array.from({ length: 7 }, (_, index) => run(task(index === 3))),
    );
    expect(peak).toBe(2);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
  });
});
