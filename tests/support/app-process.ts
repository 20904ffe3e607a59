import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../scripts/lib/system';
import { builtEntry } from './built';
import { createTestDatabase, type TestDatabase } from './postgres';
import { deleteRedisPrefix, TEST_REDIS_URL } from './redis';

export interface RunningApp {
  baseURL: string;
  /** The start's process id (its web processes and worker are its children). */
  pid: number;
  dataDir: string;
  /** Its PostgreSQL database (DATABASE_URL); undefined on SQLite (the file in `dataDir`). */
  databaseUrl?: string;
  /** The SESSION_SECRET it was given, if any (else it made one in `dataDir`). */
  sessionSecret?: string;
  adminEmail: string;
  adminPassword: string;
  output: () => string;
  redisPrefix: string;
  stop: () => Promise<void>;
}

/**
 * Starts the real product the way `npm start` does (web + worker, migrations,
 * seed) on a free port, with its own data folder and Redis prefix, in demo mode.
 * When this process is on PostgreSQL (DATABASE_URL set: the integration tests'
 * PostgreSQL mode), the app gets a database of its own too, dropped by `stop()`,
 * unless `extraEnv` names one (several apps sharing a database).
 */
export async function startApp(extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-e2e-'));
  const prefix = `coursegen-e2e-${randomBytes(4).toString('hex')}`;
  const adminEmail = 'admin@e2e.test';
  const adminPassword = 'admin-password-123';
  let ownDatabase: TestDatabase | undefined;
  const databaseEnv: Record<string, string> = {};
  if (process.env.DATABASE_URL && extraEnv.DATABASE_URL === undefined) {
    ownDatabase = await createTestDatabase('app');
    databaseEnv.DATABASE_URL = ownDatabase.url;
    // Required with DATABASE_URL (the app cannot keep one in a data folder other nodes lack).
    databaseEnv.SESSION_SECRET = randomBytes(32).toString('hex');
  }
  const appEnv: NodeJS.ProcessEnv = { ...process.env, ...databaseEnv, ...extraEnv };
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [builtEntry('start')], {
    env: {
      ...process.env,
      ...databaseEnv,
      NODE_ENV: 'production',
      PORT: String(port),
      // Links the app builds (emails, payment return URLs) point where the browser is.
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      DEMO_MODE: 'true',
      ANTHROPIC_API_KEY: '',
      SMTP_URL: '',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      // Every browser test signs up its own members, all from 127.0.0.1.
      SIGNUPS_PER_IP_PER_HOUR: '1000',
      // One web process: the mocks' knobs (MOCK_AI_FAIL_FIRST...) count per process, and browser
      // tests count on them; tests/integration/web-cluster.test.ts runs several.
      WEB_CONCURRENCY: '1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: false,
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));

  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The app exited early:\n${log}`);
      try {
        const response = await fetch(`${baseURL}/healthz`);
        if (response.ok && log.includes('CourseGen is running')) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`The app did not become healthy:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await ownDatabase?.drop();
    throw error;
  }

  return {
    baseURL,
    pid: child.pid!,
    dataDir,
    databaseUrl: appEnv.DATABASE_URL || undefined,
    sessionSecret: appEnv.SESSION_SECRET || undefined,
    adminEmail,
    adminPassword,
    redisPrefix: prefix,
    output: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await deleteRedisPrefix(prefix);
      await ownDatabase?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
