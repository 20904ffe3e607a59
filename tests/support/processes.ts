import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';

/** The processes of a process group (what a signal to the group reaches). */
export function groupMembers(pgid: number): number[] {
  const listed = spawnSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' });
  return listed.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

/** The children of `parent` whose command line includes `command`. */
export function childPids(parent: number, command: string): number[] {
  const listed = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], {
    encoding: 'utf8',
  });
  return listed.stdout
    .split('\n')
    .filter((line) => line.includes(command))
    .map((line) => Number(line.trim().split(' ')[0]))
    .filter((pid) => pid > 0);
}

/** Polls `probe` until it gives something truthy (returned), or throws after `timeoutMs`. */
export async function until<T>(
  probe: () => T | Promise<T>,
  timeoutMs: number,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface LoggedProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved as they came. */
  output: () => string;
  /** Resolves once the output holds `text`; throws with the output if the process ends first. */
  waitFor: (text: string | RegExp, timeoutMs?: number) => Promise<void>;
  /** Signals the process (its whole group when started `detached`) and waits for its exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A process whose output the test reads: a start, as a person or a container runs it. */
export function spawnLogged(command: string, args: string[], options: SpawnOptions): LoggedProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => log,
    exited,
    async waitFor(text, timeoutMs = 120_000) {
      const found = () => (typeof text === 'string' ? log.includes(text) : text.test(log));
      const deadline = Date.now() + timeoutMs;
      while (!found()) {
        if (!running())
          throw new Error(`${command} ended (${child.exitCode}) before ${text}:\n${log}`);
        if (Date.now() > deadline) throw new Error(`No ${text} within ${timeoutMs} ms:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (!running()) return;
      if (options.detached) process.kill(-child.pid!, signal);
      else child.kill(signal);
      await exited;
    },
  };
}

/**
 * An environment of only these variables and a PATH with node: what a container, or a person's
 * fresh shell, gives a process. Nothing of the test's own environment (its DATABASE_URL,
 * REDIS_URL, an API key) comes along.
 */
export function onlyEnv(values: Record<string, string>): NodeJS.ProcessEnv {
  const PATH = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  return { PATH, ...values } as unknown as NodeJS.ProcessEnv;
}
