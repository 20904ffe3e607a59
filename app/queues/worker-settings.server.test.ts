import { describe, expect, it } from 'vitest';
import { envSchema } from '~/utils/env.server';
import { crashRecoveryBoundMs, jobLockSettings } from './worker-settings.server';

describe('how long a job is locked (ADR 38)', () => {
  const defaultLockMs = envSchema.parse({}).JOB_LOCK_MS;

  it("lets a crashed worker's jobs run again within 15 s by default", () => {
    expect(crashRecoveryBoundMs(defaultLockMs)).toBeLessThan(15_000);
  });

  it("renews a live job's lock long before it could lapse", () => {
    const { lockDuration, lockRenewTime, stalledInterval } = jobLockSettings(defaultLockMs);
    // BullMQ renews a job whose last renewal is half a renew period old, checking every half
    // period: at worst a full renew period apart, leaving three quarters of the lock in hand.
    expect(lockDuration - lockRenewTime).toBeGreaterThanOrEqual(0.75 * lockDuration);
    // The stalled check runs often enough to see a lapsed lock soon after it lapses.
    expect(stalledInterval).toBeLessThan(lockDuration / 2);
  });
});
