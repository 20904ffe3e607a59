import { describe, expect, it } from 'vitest';
import {
  BACKOFF_CAP_MS,
  cappedBackoffDelay,
  errorMessage,
  REPEATING_BACKOFF_CAP_MS,
  retryDelay,
} from './retry.server';

describe('cappedBackoffDelay', () => {
  const middle = () => 0.5; // jitter factor exactly 1

  it('doubles from the base delay', () => {
    expect([1, 2, 3, 4].map((n) => cappedBackoffDelay(n, middle, 1000))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
  });

  it('never exceeds the cap, even after a million tries', () => {
    expect(cappedBackoffDelay(1_000_000, middle, 1000)).toBe(BACKOFF_CAP_MS);
    expect(cappedBackoffDelay(50, () => 0.999, 1000)).toBeLessThanOrEqual(BACKOFF_CAP_MS * 1.2);
  });

  it('spreads retries with jitter', () => {
    expect(cappedBackoffDelay(3, () => 0, 1000)).toBe(3200);
    expect(cappedBackoffDelay(3, () => 1, 1000)).toBe(4800);
  });
});

describe('errorMessage', () => {
  it('names the error class and its message, or stringifies anything else', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('TypeError: bad');
    expect(errorMessage('plain')).toBe('plain');
  });
});

describe('retryDelay', () => {
  const middle = () => 0.5;

  it('keeps the short cap for transient failures and grows to an hour for repeating ones', () => {
    expect(retryDelay(40, { kind: 'transient' }, 1000, middle)).toBe(BACKOFF_CAP_MS);
    expect(retryDelay(40, { kind: 'unusable' }, 1000, middle)).toBe(REPEATING_BACKOFF_CAP_MS);
    expect(retryDelay(40, { kind: 'repeating' }, 1000, middle)).toBe(REPEATING_BACKOFF_CAP_MS);
    expect(retryDelay(2, { kind: 'unusable' }, 1000, middle)).toBe(2000);
  });

  it("honours the provider's Retry-After, up to the long cap", () => {
    expect(retryDelay(1, { kind: 'transient', retryAfterMs: 30_000 }, 1000, middle)).toBe(30_000);
    expect(retryDelay(1, { kind: 'transient', retryAfterMs: 10 * 3_600_000 }, 1000, middle)).toBe(
      REPEATING_BACKOFF_CAP_MS,
    );
  });
});
