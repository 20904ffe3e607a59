import { describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { AiOutputError, describeAiFailure } from './ai.server';

describe('describeAiFailure', () => {
  const apiError = (status: number, headers: Record<string, string> = {}) =>
    Anthropic.APIError.generate(status, { error: { message: 'x' } }, 'x', new Headers(headers));

  it('retries rate limits, overload and server errors soon, with their Retry-After', () => {
    expect(describeAiFailure(apiError(429, { 'retry-after': '30' }))).toEqual({
      kind: 'transient',
      retryAfterMs: 30_000,
      rateLimited: true,
    });
    expect(describeAiFailure(apiError(529)).kind).toBe('transient');
    expect(describeAiFailure(apiError(500)).kind).toBe('transient');
    expect(describeAiFailure(new TypeError('fetch failed')).kind).toBe('transient');
  });

  it('slows down for answers that cannot be used and for refused requests', () => {
    expect(describeAiFailure(new AiOutputError('not JSON')).kind).toBe('unusable');
    expect(describeAiFailure(apiError(400)).kind).toBe('repeating');
  });
});
