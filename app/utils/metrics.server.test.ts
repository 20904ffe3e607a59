import { describe, expect, it } from 'vitest';
import { carriesMetricsToken, recordRateLimitRefusal, registry } from './metrics.server';

describe('metrics', () => {
  it('are for the bearer of the token only', () => {
    const token = 'a-token-of-sixteen-or-more';
    expect(carriesMetricsToken(`Bearer ${token}`, token)).toBe(true);
    expect(carriesMetricsToken(`bearer ${token}`, token)).toBe(true);
    expect(carriesMetricsToken(undefined, token)).toBe(false);
    expect(carriesMetricsToken(token, token)).toBe(false);
    expect(carriesMetricsToken(`Bearer ${token}x`, token)).toBe(false);
    expect(carriesMetricsToken('Bearer ', '')).toBe(false);
  });

  it('label a refusal by its limit, not its key', async () => {
    recordRateLimitRefusal('signin:ip');
    const text = await registry.metrics();
    expect(text).toContain('coursegen_rate_limit_refusals_total{limit="signin:ip"} 1');
  });
});
