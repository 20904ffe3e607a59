import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../scripts/lib/system';
import type { RunningApp } from '../../tests/support/app-process';
import { TEST_REDIS_URL } from '../../tests/support/redis';

export interface WebProcess {
  base: string;
  child: ChildProcess;
}

/** One more web process of `app`, from `root`'s build, with `env` on top of the app's. */
export async function webProcess(
  app: RunningApp,
  root: string,
  env: Record<string, string> = {},
): Promise<WebProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--preserve-symlinks', path.join(root, 'build', 'bin', 'web-process.js')],
    {
      cwd: root,
      env: {
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
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ;) {
    const up = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { base, child };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`a web process from ${root} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
