import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../scripts/lib/system';
import type { RunningApp } from '../../tests/support/app-process';
import { TEST_REDIS_URL } from '../../tests/support/redis';

export interface WebProcess {
  base: string;
  child: ChildProcess;
}

/** The environment a web process of `app` runs with on `port`, with `env` on top. */
export function appEnvironment(
  app: RunningApp,
  port: number,
  env: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: app.dataDir,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: app.redisPrefix,
    DEMO_MODE: 'true',
    LOG_LEVEL: 'error',
    ...env,
  };
}

/**
 * One more web process of `app` (its data folder, Redis and worker), from `root`'s build, with
 * `env` on top of the app's; answers once its /healthz does.
 */
export async function webProcess(
  app: RunningApp,
  root: string,
  env: Record<string, string> = {},
  nodeOptions: string[] = [],
): Promise<WebProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...nodeOptions, '--preserve-symlinks', path.join(root, 'build', 'bin', 'web-process.js')],
    { cwd: root, env: appEnvironment(app, port, env), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const base = `http://127.0.0.1:${port}`;
  await untilHealthy(base, child, `a web process from ${root}`);
  return { base, child };
}

/** Waits (up to a minute) until `base`/healthz answers 200. */
async function untilHealthy(base: string, child: ChildProcess, name: string) {
  for (const deadline = Date.now() + 60_000; ;) {
    const up = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${name} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
