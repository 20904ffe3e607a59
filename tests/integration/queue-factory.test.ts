import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spawnWorker, stopWorker } from '../support/worker-process';
import { TEST_REDIS_URL } from '../support/redis';
import { closeAllQueues, defineQueue } from '~/queues/factory.server';
import { env } from '~/utils/env.server';
import { closeRedis } from '~/utils/redis.server';

const admin = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
afterAll(() => admin.disconnect());

/** Connections of this test's install: every one is named after its Redis prefix. */
async function openConnections(): Promise<string[]> {
  const list = (await admin.client('LIST')) as string;
  return [...list.matchAll(/ name=(\S+)/g)]
    .map((match) => match[1]!)
    .filter((name) => name.startsWith(env().REDIS_PREFIX));
}

describe('the queue factory', () => {
  it('gives each queue one error listener however many jobs are added, and closes them all', async () => {
    const probe = defineQueue({
      name: 'factory-probe',
      payload: z.object({ n: z.number().int() }),
      jobId: ({ n }) => `probe-${n}`,
      defaultJobOptions: { removeOnComplete: true },
    });
    for (let n = 0; n < 50; n += 1) await probe.add({ n });
    await probe.addBulk(Array.from({ length: 50 }, (_, i) => ({ data: { n: 50 + i } })));
    await probe.add({ n: 1 }); // the same job id again: a no-op
    expect(await probe.queue().count()).toBe(100);
    expect(probe.queue().listenerCount('error')).toBe(1);
    expect(await probe.findJob({ n: 7 })).toMatchObject({ id: 'probe-7', data: { n: 7 } });
    await expect(probe.add({ n: 1.5 })).rejects.toThrow();

    await probe.queue().obliterate({ force: true });
    await closeAllQueues();
    await closeRedis();
    expect(await openConnections()).toEqual([]);
  });

  it('re-creates lost work, but not work whose job finished while it looked', async () => {
    const probe = defineQueue({
      name: 'factory-ensure',
      payload: z.object({ n: z.number().int() }),
      jobId: ({ n }) => `ensure-${n}`,
      defaultJobOptions: { removeOnComplete: true },
    });
    // Work 1 is owed and has no job: lost. Work 2 is listed, but its job finished (and was
    // removed) before Redis was read, after writing its work: the second listing leaves it out.
    let listings = 0;
    const owed = async () => {
      listings += 1;
      return (listings === 1 ? [1, 2] : [1]).map((n) => ({ data: { n } }));
    };
    expect(await probe.ensure(owed)).toBe(1);
    expect(listings).toBe(2);
    expect(await probe.findJob({ n: 1 })).toBeDefined();
    expect(await probe.findJob({ n: 2 })).toBeUndefined();

    // A list (a request that knows its work is owed) is taken as it is.
    expect(await probe.ensure([{ data: { n: 3 } }])).toBe(1);
    expect(await probe.ensure([{ data: { n: 3 } }])).toBe(0);

    await probe.queue().obliterate({ force: true });
    await closeAllQueues();
    await closeRedis();
  });

  it('leaves no Redis connection open after the worker shuts down', async () => {
    const worker = spawnWorker();
    await worker.ready;
    expect((await openConnections()).length).toBeGreaterThan(2);
    await stopWorker(worker, 'SIGTERM');
    expect(worker.child.exitCode).toBe(0);
    expect(await openConnections()).toEqual([]);
  });
});
