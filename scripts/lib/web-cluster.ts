import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { log } from '~/utils/logger.server';

/**
 * The web tier on every core (ADR 0016): this primary process forks WEB_CONCURRENCY web processes
 * that share one listening port (each accepts connections as it is free to, ADR 0026), restarts
 * one that dies, and stops them all when it is asked to stop. It serves nothing
 * itself, so a crash in a request takes down one web process, not the port.
 */

/** A web process that ran this long before dying was not crash-looping: its back-off restarts. */
export const STABLE_AFTER_MS = 30_000;
const FIRST_RESTART_MS = 250;
const LONGEST_RESTART_MS = 30_000;

export function webProcessCount(configured: number | undefined): number {
  return Math.max(1, configured ?? os.availableParallelism());
}

/**
 * How long to wait before starting a web process again after `failures` deaths in a row, each
 * soon after its start: at once (nearly) the first time, then doubling, so a process that dies at
 * boot (a bad build, a full disk) restarts every 30 s instead of spinning.
 */
export function restartDelayMs(failures: number): number {
  return Math.min(LONGEST_RESTART_MS, FIRST_RESTART_MS * 2 ** Math.max(0, failures));
}

export function superviseWebProcesses(options: { count: number; shutdownTimeoutMs: number }) {
  let stopping = false;
  const restarts = new Set<NodeJS.Timeout>();

  const start = (slot: number, failures: number) => {
    const startedAt = Date.now();
    const worker = cluster.fork();
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      // A restart is also delayed so that a signal to the whole process group, which reaches a web
      // process and this one together, is seen here before anything is started again.
      const failed = Date.now() - startedAt < STABLE_AFTER_MS ? failures : 0;
      const delay = restartDelayMs(failed);
      log.error('web.process_died', {
        slot,
        pid: worker.process.pid,
        code,
        signal,
        restartInMs: delay,
      });
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) start(slot, failed + 1);
      }, delay);
      restarts.add(timer);
    });
  };

  const alive = () =>
    Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && !worker.isDead(),
    );

  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    const running = alive();
    // Each web process finishes its requests in flight within SHUTDOWN_TIMEOUT_MS (it may have the
    // same signal already, from the process group: a second one changes nothing).
    for (const worker of running) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of alive()) worker.process.kill('SIGKILL');
    }, options.shutdownTimeoutMs + 2_000).unref();
    void Promise.all(
      running.map((worker) => new Promise((resolve) => worker.once('exit', resolve))),
    ).then(() => process.exit(0));
  };
  // `on`, not `once`: the same signal may arrive twice (process group and `npm start`).
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  for (let slot = 0; slot < options.count; slot += 1) start(slot, 0);
  log.info('web.cluster_started', { pid: process.pid, processes: options.count });
}
