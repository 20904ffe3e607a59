import type { LoaderFunctionArgs } from '@remix-run/node';
import { dependencyHealth } from '~/utils/health.server';
import { appVersion } from '~/utils/version.server';

/**
 * Liveness and readiness in one (`dependencyHealth`: the database and Redis, each answering within
 * a bounded time, ADR 0046). Also what the web server reports: how often the start had to bring a
 * process back (`restarts`, ADR 0029) and this process's write turns (`writes`, ADR 0026).
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const { database, redis } = await dependencyHealth();
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
