import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { post, uniqueEmail, uniqueIp } from '../support/account-routes';
import { action as apiContact } from '~/routes/api/api.contact';
import { action as apiForgot } from '~/routes/api/api.forgot';
import { action as apiSignIn } from '~/routes/api/api.signin';
import { action as apiSignUp } from '~/routes/api/api.signup';
import { resetEnvForTests } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { hit } from '~/utils/rate-limit.server';
import { closeRedis, producerRedis, waitForRedis } from '~/utils/redis.server';

async function status(response: unknown) {
  return (response as Response).status;
}

/**
 * Issue 35, item 11b: a process's first rate-limited request found its Redis connection still
 * opening, logged that limits were counted in memory, and counted itself there, where the next
 * request (in Redis) did not see it. Counting in memory is for Redis being away.
 */
describe('rate limits while the Redis connection is still opening', () => {
  it('wait for it and count in Redis, saying nothing about memory', async () => {
    // The process's connection opens anew, as a web process's first request finds it.
    await closeRedis();
    const warn = vi.spyOn(log, 'warn');
    try {
      const limit = { name: 'opening-test', max: 1, windowSeconds: 60 };
      expect(producerRedis().status).not.toBe('ready');
      const first = await hit(limit, 'one-key');
      // The next request, with the connection open, counts on from the first.
      await waitForRedis();
      const results = [first, await hit(limit, 'one-key')];
      expect({
        allowed: results.map((result) => result.allowed),
        warned: warn.mock.calls.map(([event]) => event),
      }).toEqual({ allowed: [true, false], warned: [] });
    } finally {
      warn.mockRestore();
    }
  });
});

/**
 * Issue 31, item 5: with Redis unreachable, the security-relevant limits (sign-in, forgot,
 * contact, the API's) still refuse past their maximum, counted in this process's memory, instead
 * of letting every request through.
 */
describe('rate limits while Redis is away', () => {
  let deadServer: net.Server;

  beforeAll(async () => {
    await closeRedis();
    // A port that accepts no Redis: bound, then closed, so nothing listens there.
    deadServer = net.createServer();
    await new Promise<void>((resolve) => deadServer.listen(0, '127.0.0.1', resolve));
    const { port } = deadServer.address() as net.AddressInfo;
    await new Promise<void>((resolve) => deadServer.close(() => resolve()));
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
    process.env.LOG_LEVEL = 'error';
    resetEnvForTests();
    expect(producerRedis().status).not.toBe('ready');
  });

  afterAll(() => {
    // The dead connection would retry for ever: drop it before the shared teardown.
    producerRedis().disconnect();
  });

  it('a limit still refuses past its maximum, and says for how long', async () => {
    const limit = { name: 'fallback-test', max: 3, windowSeconds: 60 };
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await hit(limit, 'one-key'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[3]!.retryAfterSeconds).toBeGreaterThan(0);
    expect(results[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another key has its own count.
    expect((await hit(limit, 'other-key')).allowed).toBe(true);
  });

  it('sign-in: wrong passwords for one account from one address are refused after 10', async () => {
    const email = uniqueEmail('fallback');
    expect(
      await status(
        await post(apiSignUp, '/api/signup', {
          email,
          mName: 'Fallback',
          password: 'right-pass-1',
        }),
      ),
    ).toBe(200);
    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push(
        await status(await post(apiSignIn, '/api/signin', { email, password: 'wrong' }, { ip })),
      );
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('forgot: the sixth request for one address within the hour is refused', async () => {
    const email = uniqueEmail('fallback-forgot');
    const statuses = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push(await status(await post(apiForgot, '/api/forgot', { email })));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('contact (an /api route): the sixth message from one address is refused', async () => {
    const ip = uniqueIp();
    const body = {
      fname: 'Ada',
      lname: 'Lovelace',
      email: 'ada@example.com',
      phone: '4412345678',
      msg: 'Hello while Redis is away',
    };
    const statuses = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push(await status(await post(apiContact, '/api/contact', body, { ip })));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
