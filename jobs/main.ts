import { startTracing } from '../server/tracing';

/**
 * The worker process (`build/bin/worker.js`, `npm run start:worker`). With traces asked for
 * (ADR 0064) their SDK starts first, so that what it instruments (BullMQ's ioredis, pg) is
 * imported after it; the worker itself (jobs/worker.ts) is imported then.
 */
const tracing = await startTracing('coursegen-worker');
if (tracing) (await import('~/utils/tracing.server')).enableTracing(tracing);
await import('./worker');
