import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTurns, type WriteTurnOptions } from './write-turns';

/**
 * A server whose writes answer only when the test says so (`finish(path)`), behind write turns;
 * `started` lists the requests whose handler ran, in order.
 */
async function serverWithTurns(options: WriteTurnOptions) {
  const turns = writeTurns(options);
  const started: string[] = [];
  const pending = new Map<string, http.ServerResponse>();
  const server = http.createServer((req, res) =>
    turns.take(req, res, () => {
      started.push(`${req.method} ${req.url}`);
      if (req.method === 'GET') res.end('read');
      else pending.set(req.url!, res);
    }),
  );
  server.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    turns,
    started,
    base,
    finish: (path: string) => pending.get(path)!.end('written'),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const waitFor = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
};

describe('write turns', () => {
  let close = () => {};
  afterEach(() => close());

  it('runs at most `concurrent` writes; the others wait in order while reads go straight through', async () => {
    const server = await serverWithTurns({ concurrent: 2, turnMs: 10_000 });
    close = server.close;
    const writes = ['/w1', '/w2', '/w3', '/w4'].map((path) =>
      fetch(`${server.base}${path}`, { method: 'POST' }).then((r) => r.text()),
    );
    await waitFor(() => server.turns.counts().waiting === 2);
    expect([...server.started].sort()).toEqual(['POST /w1', 'POST /w2']);

    expect(await (await fetch(`${server.base}/page`)).text()).toBe('read');

    server.finish('/w2');
    await waitFor(() => server.started.length === 4);
    expect(server.started.slice(2)).toEqual(['GET /page', 'POST /w3']);
    server.finish('/w1');
    server.finish('/w3');
    await waitFor(() => server.started.length === 5);
    server.finish('/w4');
    expect(await Promise.all(writes)).toEqual(['written', 'written', 'written', 'written']);
    expect(server.turns.counts()).toEqual({ running: 0, waiting: 0, refused: 0 });
  });

  it('lets the next write in when one has run for turnMs, though it has not answered', async () => {
    const server = await serverWithTurns({ concurrent: 1, turnMs: 50 });
    close = server.close;
    const slow = fetch(`${server.base}/slow`, { method: 'POST' }).then((r) => r.text());
    await waitFor(() => server.started.length === 1);
    const next = fetch(`${server.base}/next`, { method: 'POST' }).then((r) => r.text());
    await waitFor(() => server.started.length === 2);
    expect(server.started).toEqual(['POST /slow', 'POST /next']);
    server.finish('/next');
    expect(await next).toBe('written');
    server.finish('/slow');
    expect(await slow).toBe('written');
  });

  it('drops a waiting write whose client went away, and runs the next', async () => {
    const server = await serverWithTurns({ concurrent: 1, turnMs: 10_000 });
    close = server.close;
    const first = fetch(`${server.base}/first`, { method: 'POST' }).then((r) => r.text());
    await waitFor(() => server.started.length === 1);
    const gone = new AbortController();
    const abandoned = fetch(`${server.base}/abandoned`, {
      method: 'POST',
      signal: gone.signal,
    }).catch(() => 'aborted');
    const last = fetch(`${server.base}/last`, { method: 'POST' }).then((r) => r.text());
    await waitFor(() => server.turns.counts().waiting === 2);
    gone.abort();
    expect(await abandoned).toBe('aborted');
    await new Promise((r) => setTimeout(r, 50));

    server.finish('/first');
    await waitFor(() => server.started.length === 2);
    expect(server.started).toEqual(['POST /first', 'POST /last']);
    server.finish('/last');
    expect(await Promise.all([first, last])).toEqual(['written', 'written']);
  });

  it('refuses a write with 503 and Retry-After when maxWaiting already wait, logs it once, counts it', async () => {
    const warnings: unknown[] = [];
    const server = await serverWithTurns({
      concurrent: 1,
      turnMs: 10_000,
      maxWaiting: 2,
      log: { warn: (event, fields) => warnings.push({ event, ...fields }) },
    });
    close = server.close;
    const admitted = ['/w1', '/w2', '/w3'].map((path) =>
      fetch(`${server.base}${path}`, { method: 'POST' }).then((r) => r.text()),
    );
    await waitFor(() => server.turns.counts().waiting === 2);
    const refused = await Promise.all(
      ['/w4', '/w5'].map((path) => fetch(`${server.base}${path}`, { method: 'POST' })),
    );
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(await answer.json()).toMatchObject({ success: false });
    }
    expect(server.turns.counts()).toEqual({ running: 1, waiting: 2, refused: 2 });
    expect(warnings).toEqual([
      expect.objectContaining({ event: 'web.writes_refused', refused: 1 }),
    ]);
    for (const path of ['/w1', '/w2', '/w3']) {
      await waitFor(() => server.started.includes(`POST ${path}`));
      server.finish(path);
    }
    expect(await Promise.all(admitted)).toEqual(['written', 'written', 'written']);
  });

  it.each([
    '/webhooks/paypal',
    '/webhooks/razorpay',
    '/signin',
    '/api/signin',
    '/signup',
    '/logout',
  ])('never keeps %s waiting behind a burst of writes', async (urgent) => {
    const server = await serverWithTurns({ concurrent: 1, turnMs: 10_000, maxWaiting: 1 });
    close = server.close;
    const burst = ['/create', '/create?2'].map((path) =>
      fetch(`${server.base}${path}`, { method: 'POST' }).then((r) => r.text()),
    );
    await waitFor(() => server.turns.counts().waiting === 1);
    const answer = fetch(`${server.base}${urgent}`, { method: 'POST' }).then((r) => r.text());
    await waitFor(() => server.started.includes(`POST ${urgent}`));
    server.finish(urgent);
    expect(await answer).toBe('written');
    server.finish('/create');
    await waitFor(() => server.started.includes('POST /create?2'));
    server.finish('/create?2');
    expect(await Promise.all(burst)).toEqual(['written', 'written']);
  });
});
