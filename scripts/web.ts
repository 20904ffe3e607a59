import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { env } from '~/utils/env.server';
import { superviseWebProcesses, webProcessCount } from './lib/web-cluster';

/**
 * The web tier (`npm run start:web`, and what `npm start` runs): the cluster primary of
 * WEB_CONCURRENCY web processes, each `scripts/web-server.ts`, sharing PORT (ADR 0016). It imports
 * nothing of the web app, so it starts at once and costs little memory.
 */
cluster.setupPrimary({ exec: fileURLToPath(new URL('./web-server.ts', import.meta.url)) });
superviseWebProcesses({
  count: webProcessCount(env().WEB_CONCURRENCY),
  shutdownTimeoutMs: env().SHUTDOWN_TIMEOUT_MS,
});
