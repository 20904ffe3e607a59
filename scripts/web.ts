import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { env } from '~/utils/env.server';
import { superviseWebProcesses, webProcessCount } from './lib/web-cluster';

/**
 * The web tier (`npm run start:web`, and what `npm start` runs): the cluster primary of
 * WEB_CONCURRENCY web processes, each `scripts/web-server.ts`, sharing PORT (ADR 0016). It imports
 * nothing of the web app, so it starts at once and costs little memory.
 */
// Each web process accepts its own connections (ADR 0026). Handed out in turn by this process,
// a connection waits for its web process to answer for the one before, which a process busy with
// a burst does only between two of its steps: a visitor's page waited for the whole burst.
cluster.schedulingPolicy = cluster.SCHED_NONE;
cluster.setupPrimary({ exec: fileURLToPath(new URL('./web-server.ts', import.meta.url)) });
superviseWebProcesses({
  count: webProcessCount(env().WEB_CONCURRENCY),
  shutdownTimeoutMs: env().SHUTDOWN_TIMEOUT_MS,
});
