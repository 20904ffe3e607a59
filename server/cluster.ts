import type { ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import { availableCores } from './cpu-limit';

/**
 * The web tier on every core (ADR 0016): the process that calls this becomes the cluster's
 * primary and forks web processes that share one listening port. It serves nothing itself, so a
 * crash in a request takes down one web process, not the port; whoever forks them (the start,
 * or `npm run start:web`) keeps them running with `supervisor` (server/supervise.ts).
 */
export function webProcessCount(configured: number | undefined): number {
  // A web process per core this process may use: a container's CPU quota counts (cpu-limit.ts).
  return Math.max(1, configured ?? availableCores());
}

let execSet = false;

/**
 * Forks one web process running `exec` (the compiled `build/bin/web-process.js`) with `env` on
 * top of this process's; `onListening` runs once it serves (to send it what it should know from
 * the start, e.g. restart counts).
 */
export function forkWebProcess(
  exec: string,
  env: Record<string, string> = {},
  onListening?: (child: ChildProcess) => void,
): ChildProcess {
  if (!execSet) {
    // Each web process accepts its own connections (ADR 0026). Handed out in turn by the
    // primary, a connection waits for its web process to answer for the one before, which a
    // process busy with a burst does only between two of its steps.
    cluster.schedulingPolicy = cluster.SCHED_NONE;
    cluster.setupPrimary({ exec });
    execSet = true;
  }
  const worker = cluster.fork(env);
  if (onListening) worker.once('listening', () => onListening(worker.process));
  return worker.process;
}
