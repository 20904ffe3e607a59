import { checkDatabaseHealth } from '~/utils/database.server';
import { log } from '~/utils/logger.server';
import { producerRedis, waitForRedis } from '~/utils/redis.server';

export type Check = 'ok' | 'down';

/** How long each check may take: /healthz answers within it, whatever the database is doing. */
const CHECK_TIMEOUT_MS = 2_000;

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
 * Redis answers PING, each within CHECK_TIMEOUT_MS. On PostgreSQL the query has a connection of
 * its own, so it does not wait behind pages whose queries wait on a lock (they answer 503
 * themselves, ADR 0046). A web process answers it, and on a worker-only node the worker (ADR 0045).
 */
export async function dependencyHealth(): Promise<{ database: Check; redis: Check }> {
  const [database, redis] = await Promise.all([
    check('database', () => checkDatabaseHealth(CHECK_TIMEOUT_MS)),
    check('redis', async () => {
      await waitForRedis(CHECK_TIMEOUT_MS);
      return producerRedis().ping();
    }),
  ]);
  return { database, redis };
}
