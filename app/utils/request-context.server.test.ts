import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from './logger.server';
import { currentRequestId, requestIdFrom, runWithRequestId } from './request-context.server';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('request ids', () => {
  it("takes a proxy's well-formed id and makes one for anything else", () => {
    expect(requestIdFrom('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const odd of [undefined, '', 'has space', 'a"b', 'x'.repeat(129), ['one', 'two']])
      expect(requestIdFrom(odd)).toMatch(uuid);
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });

  it('is carried by every log line written for the request, across awaits', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    await runWithRequestId('req-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).toBe('req-1');
      log.info('inside', { n: 1 });
    });
    log.info('outside');
    expect(currentRequestId()).toBeUndefined();
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ event: 'inside', requestId: 'req-1', n: 1 });
    expect(parsed[1]).toMatchObject({ event: 'outside' });
    expect(parsed[1]).not.toHaveProperty('requestId');
  });
});
