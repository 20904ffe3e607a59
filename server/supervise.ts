import type { ChildProcess } from 'node:child_process';

/** A process that ran this long before dying was not crash-looping: its back-off restarts. */
const STABLE_AFTER_MS = 30_000;
const FIRST_RESTART_MS = 250;
const LONGEST_RESTART_MS = 30_000;

/**
 * How long to wait before starting a process again after `failures` deaths in a row, each soon
 * after its start: at once (nearly) the first time, then doubling, so a process that dies at
 * boot (a bad build, a full disk) restarts every 30 s instead of spinning.
 */
export function restartDelayMs(failures: number): number {
  return Math.min(LONGEST_RESTART_MS, FIRST_RESTART_MS * 2 ** Math.max(0, failures));
}

export interface SupervisorLog {
  info: (event: string, fields?: Record<string, unknown>) => void;
  error: (event: string, fields?: Record<string, unknown>) => void;
}

interface Kept {
  name: string;
  slot: number;
  start: () => ChildProcess;
  /** Deaths in a row, each soon after its start, after which the supervisor gives up. */
  giveUpAfter?: number;
  /** Stopped after the others (the Redis they all use). */
  last: boolean;
  child: ChildProcess | null;
  timer: NodeJS.Timeout | null;
}

/**
 * Keeps child processes running (ADR 0029): one that dies is started again after a capped
 * back-off, with a `process_died` log line and a count per name (for /healthz), while the others
 * go on serving. `stop` signals every child and resolves only once every one has exited, the
 * `last` ones (Redis) after the rest, killing any that outlive `graceMs`.
 */
export function supervisor({
  log,
  onRestart,
  onGiveUp,
  onMessage,
}: {
  log: SupervisorLog;
  /** After each restart, with the counts so far. */
  onRestart?: (restarts: Record<string, number>) => void;
  /** A process marked with `giveUpAfter` kept dying: the caller stops everything. */
  onGiveUp?: (name: string) => void;
  /** Each message a kept process sends over its IPC channel (metrics, ADR 0056). */
  onMessage?: (child: ChildProcess, message: unknown) => void;
}) {
  const kept: Kept[] = [];
  const restarts: Record<string, number> = {};
  let stopping: Promise<void> | null = null;

  const launch = (entry: Kept, failures: number) => {
    const startedAt = Date.now();
    const child = entry.start();
    entry.child = child;
    if (onMessage) child.on('message', (message) => onMessage(child, message));
    child.once('exit', (code, signal) => {
      entry.child = null;
      if (stopping) return;
      const failed = Date.now() - startedAt < STABLE_AFTER_MS ? failures + 1 : 1;
      if (entry.giveUpAfter !== undefined && failed > entry.giveUpAfter) {
        log.error('process.gave_up', { process: entry.name, pid: child.pid, code, signal });
        onGiveUp?.(entry.name);
        return;
      }
      const delay = restartDelayMs(failed - 1);
      log.error('process.died', {
        process: entry.name,
        slot: entry.slot,
        pid: child.pid,
        code,
        signal,
        restartInMs: delay,
      });
      entry.timer = setTimeout(() => {
        entry.timer = null;
        if (stopping) return;
        restarts[entry.name] = (restarts[entry.name] ?? 0) + 1;
        launch(entry, failed);
        onRestart?.({ ...restarts });
      }, delay);
    });
  };

  const exited = (child: ChildProcess | null) =>
    child && child.exitCode === null && child.signalCode === null
      ? new Promise<void>((resolve) => child.once('exit', () => resolve()))
      : Promise.resolve();

  /** Signals `entries`' children and waits for them, killing those still there after `graceMs`. */
  const stopAll = async (entries: Kept[], graceMs: number) => {
    const children = entries.map((entry) => entry.child);
    for (const child of children) child?.kill('SIGTERM');
    const killer = setTimeout(() => {
      for (const child of children) if (child?.exitCode === null) child.kill('SIGKILL');
    }, graceMs);
    await Promise.all(children.map(exited));
    clearTimeout(killer);
  };

  return {
    /** Starts `start()` now and again whenever its process dies, until `stop`. */
    keep(
      name: string,
      start: () => ChildProcess,
      options: { slot?: number; giveUpAfter?: number; last?: boolean } = {},
    ) {
      const entry: Kept = {
        name,
        slot: options.slot ?? 0,
        start,
        giveUpAfter: options.giveUpAfter,
        last: options.last ?? false,
        child: null,
        timer: null,
      };
      kept.push(entry);
      launch(entry, 0);
    },
    restarts: () => ({ ...restarts }),
    /** The running children, for messages and tests. */
    children: () => kept.flatMap((entry) => (entry.child ? [entry.child] : [])),
    /**
     * Stops every process: the others first, each given `graceMs` before it is killed, then the
     * `last` ones, given `lastGraceMs`. Resolves when all have exited.
     */
    stop(graceMs: number, lastGraceMs = graceMs): Promise<void> {
      stopping ??= (async () => {
        for (const entry of kept) if (entry.timer) clearTimeout(entry.timer);
        await stopAll(
          kept.filter((entry) => !entry.last),
          graceMs,
        );
        await stopAll(
          kept.filter((entry) => entry.last),
          lastGraceMs,
        );
      })();
      return stopping;
    },
  };
}
