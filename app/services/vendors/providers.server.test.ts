import { describe, expect, it } from 'vitest';
import { AiRateLimited } from '~/utils/ai-rate-limit.server';
import { failureFromStatus, retryAfterMs, type AiProvider } from './ai-provider.server';
import { withAiBudget, type AiBudget } from './providers.server';

class FakeApiError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(`${status}`);
  }
}

/** A provider that answers "ok", or throws `failWith` once. */
function fakeProvider(calls: string[], failWith?: FakeApiError): AiProvider {
  let failure = failWith;
  const answer = async (what: string) => {
    calls.push(what);
    if (failure) {
      const error = failure;
      failure = undefined;
      throw error;
    }
    return 'ok';
  };
  return {
    name: 'fake',
    text: () => answer('text'),
    streamText: () => answer('stream'),
    callTool: () => answer('tool'),
    describeFailure: (error) =>
      error instanceof FakeApiError ? failureFromStatus(error.status, error.headers) : undefined,
  };
}

const request = { purpose: 'lesson' as const, system: 's', messages: [] };

function recordingBudget(events: string[], refuseMs?: number): AiBudget {
  return {
    take: async () => {
      events.push('take');
      if (refuseMs) throw new AiRateLimited(refuseMs, 'budget');
    },
    pause: async (ms) => {
      events.push(`pause ${ms}`);
    },
  };
}

describe('withAiBudget', () => {
  it('takes one call from the budget before every provider call', async () => {
    const events: string[] = [];
    const provider = withAiBudget(fakeProvider(events), recordingBudget(events));
    await provider.text(request);
    await provider.streamText(request, () => {});
    await provider.callTool({ ...request, tool: { name: 't', description: '', inputSchema: {} } });
    expect(events).toEqual(['take', 'text', 'take', 'stream', 'take', 'tool']);
  });

  it('does not call the provider when the budget is spent, and reads that as a rate limit', async () => {
    const events: string[] = [];
    const provider = withAiBudget(fakeProvider(events), recordingBudget(events, 2_500));
    const error = await provider.text(request).catch((caught: unknown) => caught);
    expect(events).toEqual(['take']);
    expect(provider.describeFailure(error)).toEqual({
      kind: 'transient',
      retryAfterMs: 2_500,
      rateLimited: true,
    });
  });

  it("pauses every process for the provider's Retry-After on a 429, and only then", async () => {
    const events: string[] = [];
    const limited = new FakeApiError(429, new Headers({ 'retry-after': '7' }));
    const provider = withAiBudget(fakeProvider(events, limited), recordingBudget(events));
    await expect(provider.text(request)).rejects.toBe(limited);
    expect(events).toEqual(['take', 'text', 'pause 7000']);

    const overloaded = new FakeApiError(529, new Headers({ 'retry-after': '7' }));
    const other: string[] = [];
    const busy = withAiBudget(fakeProvider(other, overloaded), recordingBudget(other));
    await expect(busy.text(request)).rejects.toBe(overloaded);
    expect(other).toEqual(['take', 'text']);
  });
});

describe('retryAfterMs', () => {
  it('prefers the exact retry-after-ms, then seconds, then an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '1500', 'retry-after': '2' }))).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(
      30_000,
    );
  });

  it('ignores a missing, zero, past or unreadable value', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '0' }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(
      retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2020 00:00:00 GMT' })),
    ).toBeUndefined();
  });
});
