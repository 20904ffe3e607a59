import type { LoaderFunctionArgs } from '@remix-run/node';
import { pingDatabase } from '~/utils/database.server';
import { log } from '~/utils/logger.server';
import { producerRedis, waitForRedis } from '~/utils/redis.server';
import { appVersion } from '~/utils/version.server';

async function check(name: string, probe: () => Promise<unknown> | unknown) {
  try {
    await probe();
    return 'ok' as const;
  } catch (error) {
    log.warn('healthz.failed', { check: name, error });
    return 'down' as const;
  }
}

/**
 * Liveness and readiness in one: the database answers a query and Redis answers PING. Also what
 * the web server reports: how often the start had to bring a process back (`restarts`, ADR 0029)
 * and this process's write turns (`writes`, ADR 0026).
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const [database, redis] = await Promise.all([
    check('database', pingDatabase),
    check('redis', async () => {
      await waitForRedis(2000);
      return producerRedis().ping();
    }),
  ]);
  const ok = database === 'ok' && redis === 'ok';
  return Response.json(
    // `pid` names the web process that answered: there is one per core (ADR 0016).
    {
      status: ok ? 'ok' : 'degraded',
      database,
      redis,
      pid: process.pid,
      restarts: context.runtime?.restarts ?? {},
      writes: context.runtime?.writes,
      version: appVersion(),
    },
    { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
