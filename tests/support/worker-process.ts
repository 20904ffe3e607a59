import { spawn, type ChildProcess } from 'node:child_process';
import { builtEntry } from './built';
import { TEST_REDIS_URL } from './redis';

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the worker logs that it is ready. */
  ready: Promise<void>;
}

/** Runs the compiled worker (`jobs/worker.ts`) as its own process with this test file's DATA_DIR and Redis prefix. */
export function spawnWorker(extraEnv: Record<string, string> = {}): WorkerProcess {
  let log = '';
  const child = spawn(process.execPath, [builtEntry('worker')], {
    env: { ...process.env, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'info', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('"worker.ready"')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`worker exited (${code}) before ready:\n${log}`)),
    );
  });
  return { child, output: () => log, ready };
}

export async function stopWorker(worker: WorkerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill(signal);
  await exited;
}
