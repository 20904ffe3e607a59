import { pingDatabase } from '~/utils/database.server';
import { log } from '~/utils/logger.server';
import { producerRedis, waitForRedis } from '~/utils/redis.server';

export type Check = 'ok' | 'down';

async function check(name: string, probe: () => Promise<unknown> | unknown): Promise<Check> {
  try {
    await probe();
    return 'ok';
  } catch (error) {
    log.warn('healthz.failed', { check: name, error });
    return 'down';
  }
}

/**
 * What every process's /healthz asks of what it depends on: the database answers a query and
 * Redis answers PING. A web process answers it, and on a worker-only node the worker (ADR 0045).
 */
export async function dependencyHealth(): Promise<{ database: Check; redis: Check }> {
  const [database, redis] = await Promise.all([
    check('database', pingDatabase),
    check('redis', async () => {
      await waitForRedis(2000);
      return producerRedis().ping();
    }),
  ]);
  return { database, redis };
}
