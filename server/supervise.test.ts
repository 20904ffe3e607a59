import { describe, expect, it } from 'vitest';
import { webProcessCount } from './cluster';
import { availableCores } from './cpu-limit';
import { restartDelayMs } from './supervise';

describe('web processes', () => {
  it('are one per core this process may use unless WEB_CONCURRENCY says otherwise', () => {
    expect(webProcessCount(undefined)).toBe(availableCores());
    expect(webProcessCount(3)).toBe(3);
  });

  it('restart at once after a death, then back off while they keep dying, up to 30 s', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs);
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
