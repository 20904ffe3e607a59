import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkWebProcess, webProcessCount } from '../server/cluster';
import { supervisor } from '../server/supervise';
import { env, readDataFiles } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { nodeMetrics } from '~/utils/node-metrics.server';

/**
 * The web tier alone (`npm run start:web`, compiled to `build/bin/web.js`): WEB_CONCURRENCY web
 * processes sharing PORT (ADR 0016), kept running like the start keeps them (ADR 0029), for
 * installs that run the worker and Redis elsewhere. Migrations are `npm run db:migrate`'s job.
 */
const exec = path.join(path.dirname(fileURLToPath(import.meta.url)), 'web-process.js');
// With PostgreSQL the install id (the default Redis prefix) is read from the database first;
// the web processes inherit it.
if (env().DATABASE_URL) await (await import('~/utils/install-id.server')).ensureInstallId();
// With SQLite, the install id and session secret are made here, before the processes share them.
readDataFiles(env());
const { WEB_CONCURRENCY, SHUTDOWN_TIMEOUT_MS } = env();
// The node's metrics, summed over its web processes (ADR 0056).
const processes = supervisor({
  log,
  onMessage: (child, message) => metrics.onMessage(child, message),
});
const metrics = nodeMetrics(() => processes.children());
for (let slot = 0; slot < webProcessCount(WEB_CONCURRENCY); slot += 1)
  processes.keep('web', () => forkWebProcess(exec), { slot });
log.info('web.cluster_started', { pid: process.pid, processes: webProcessCount(WEB_CONCURRENCY) });

const stop = () => void processes.stop(SHUTDOWN_TIMEOUT_MS + 1_000).then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
