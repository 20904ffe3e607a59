import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'bullmq';
import { closeDatabase, databasePoolUse, pingDatabase } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { startVendorMocks } from '~/utils/mocks.server';
import { closeAllQueues, jobCountsByQueue } from '~/queues/factory.server';
import { watchConnections, watchQueues } from '~/utils/metrics.server';
import { closeRedis, jobServiceUp, workerRedis } from '~/utils/redis.server';
import { registry } from './registry';
import { handedBackOnStop } from './hand-back';
import { inRequestContext, inTrace, requestIdOf, timed } from './job-context';
import { serveWorkerHealth } from './health-server';
import { startSweeper } from './sweeper';
import { retryDelay, UNLIMITED_BACKOFF_TYPE } from '~/queues/retry.server';
import { jobLockSettings, reportWorkerError } from '~/queues/worker-settings.server';
import { describeAiFailure } from '~/services/vendors/ai.server';
import { startDemoWebhookRetries } from '~/services/billing/demo-webhooks.server';
import { flushTraces } from '~/utils/tracing.server';

/** Time kept, before the shutdown limit, to hand unfinished jobs back and close. */
const HAND_BACK_MS = 1_500;

export async function startWorkers() {
  startVendorMocks();
  await pingDatabase(); // now: a bad DATA_DIR or DATABASE_URL fails the start, not the first job
  const { REDIS_PREFIX, JOB_LOCK_MS, JOB_BACKOFF_BASE_MS } = env();

  const workers = Object.entries(registry).map(([name, registration]) => {
    const worker = new Worker(
      name,
      handedBackOnStop(timed(name, inTrace(name, inRequestContext(registration.processor)))),
      {
        connection: workerRedis(),
        prefix: REDIS_PREFIX,
        concurrency: registration.concurrency(),
        ...jobLockSettings(JOB_LOCK_MS),
        ...registration.workerOptions,
        settings: {
          backoffStrategy: (attemptsMade, type, error) =>
            type === UNLIMITED_BACKOFF_TYPE
              ? retryDelay(attemptsMade, describeAiFailure(error), JOB_BACKOFF_BASE_MS)
              : -1,
        },
      },
    );
    worker.on('error', (error) => reportWorkerError(name, error));
    worker.on('failed', (job, error) =>
      log.warn('job.failed', {
        queue: name,
        jobId: job?.id,
        requestId: requestIdOf(job),
        attempt: job?.attemptsMade,
        error: error.message,
      }),
    );
    worker.on('stalled', (jobId) => log.warn('job.stalled', { queue: name, jobId }));
    worker.on('completed', (job) =>
      log.info('job.completed', { queue: name, jobId: job.id, requestId: requestIdOf(job) }),
    );
    return worker;
  });

  // Read when Prometheus scrapes (ADR 0056): the queues' jobs by state, the connections.
  watchQueues(() => jobCountsByQueue(Object.keys(registry)));
  watchConnections({ databasePool: databasePoolUse, redisUp: jobServiceUp });

  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  const sweeper = startSweeper(env().SWEEP_INTERVAL_MS, env().BILLING_RECONCILE_MINUTES);
  // Demo mode: the simulated providers' webhook deliveries a web process left owed (ADR 0037).
  startDemoWebhookRetries();
  await sweeper.firstRound;
  log.info('worker.ready', {
    queues: Object.keys(registry),
    pid: process.pid,
    niceness: os.getPriority(),
  });
  const health =
    env().PROCESSES === 'worker'
      ? serveWorkerHealth(env().PORT, () => workers.every((worker) => worker.isRunning()))
      : undefined;

  let stopping: Promise<void> | undefined;
  /**
   * Stop taking jobs and let the jobs under way finish; those still running when the shutdown
   * limit nears are handed back to their queue (waiting, no try used), so another worker, or
   * this one started again, takes them at once instead of after their lock expires. Then close
   * Redis and the database.
   */
  function stop() {
    stopping ??= (async () => {
      const { SHUTDOWN_TIMEOUT_MS } = env();
      log.info('worker.stopping', { pid: process.pid });
      health?.close();
      await sweeper.stop();
      const closing = Promise.all(workers.map((worker) => worker.close()));
      const handBack = setTimeout(
        () => {
          log.info('worker.handing_back', { pid: process.pid });
          for (const worker of workers) worker.cancelAllJobs('the worker is stopping');
        },
        Math.max(0, SHUTDOWN_TIMEOUT_MS - HAND_BACK_MS),
      );
      await closing;
      clearTimeout(handBack);
      await closeAllQueues();
      await closeRedis();
      await closeDatabase();
      log.info('worker.stopped', { pid: process.pid });
      await flushTraces();
    })();
    return stopping;
  }
  return { workers, stop };
}

/**
 * The worker yields the CPU to the web processes on the same machine (the Docker image and
 * `npm start` run both): a burst of generation then slows only itself, never a page.
 */
function lowerPriority(niceness: number) {
  // On Linux a nice value belongs to a thread: V8's and libuv's threads already started keep
  // theirs unless each is set too (threads started later inherit it).
  let threads: number[] = [0];
  try {
    threads = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: the process's own priority is all there is.
  }
  try {
    for (const thread of threads) os.setPriority(thread, niceness);
  } catch (error) {
    log.warn('worker.niceness_failed', { niceness, error });
  }
}

lowerPriority(env().WORKER_NICENESS);
// With PostgreSQL the install id (the default Redis prefix) comes from the database; the start
// hands it over, `npm run start:worker` on its own reads it here.
const started = (
  env().DATABASE_URL
    ? import('~/utils/install-id.server').then(({ ensureInstallId }) => ensureInstallId())
    : Promise.resolve()
).then(startWorkers);
// Handlers go in before start-up finishes, so a signal during it still stops cleanly.
// `on`, not `once`: a signal to the whole process group plus the one the start forwards arrive
// twice, and the second must not kill the worker mid-job. stop() runs once; SHUTDOWN_TIMEOUT_MS
// bounds it even when Redis is away and closing hangs.
const stopAndExit = () => {
  setTimeout(() => {
    log.warn('worker.shutdown_timeout', { pid: process.pid, ms: env().SHUTDOWN_TIMEOUT_MS });
    process.exit(0);
  }, env().SHUTDOWN_TIMEOUT_MS).unref();
  void started.then(({ stop }) => stop()).then(() => process.exit(0));
};
process.on('SIGTERM', stopAndExit);
process.on('SIGINT', stopAndExit);
// Started by the start, which died without stopping it (SIGKILL): stop rather than run orphaned.
if (process.channel) process.on('disconnect', stopAndExit);
started.catch((error: unknown) => {
  log.error('worker.start_failed', { error });
  process.exit(1);
});
