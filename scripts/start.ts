import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { migrateDatabase } from '../db/connection';
import { closeDb, db } from '~/utils/db.server';
import { EnvError, parseEnv } from '~/utils/env.server';
import { ensureBuild } from './lib/build';
import { checkRedis, findOrStartRedis } from './lib/redis';
import { removePidFile, runningPid, writePidFile } from './lib/pid-file';
import { seed, SeedConflict } from './seed';

/**
 * `npm start`: everything a fresh machine needs, then the web tier (WEB_CONCURRENCY web processes
 * under one primary that restarts them, ADR 16) and the worker. Stops both on Ctrl-C; exits
 * non-zero if the web primary or the worker dies.
 */
const say = (line: string) => console.log(`[coursegen] ${line}`);

function fail(message: string): never {
  console.error(`[coursegen] ${message}`);
  process.exit(1);
}

async function main() {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  process.env.NODE_ENV ??= 'production';

  let config;
  try {
    config = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) fail(error.message);
    throw error;
  }

  if (config.NODE_ENV === 'production' && !process.env.APP_URL)
    say(
      `Warning: APP_URL is not set, so links in emails (password resets, receipts) point at ` +
        `${config.APP_URL}. Set APP_URL to the address members open (e.g. https://courses.example.com).`,
    );
  const running = runningPid(config.DATA_DIR);
  if (running)
    fail(`CourseGen is already running on ${config.DATA_DIR} (pid ${running}). Stop it first.`);
  ensureBuild(say);
  migrateDatabase(db());
  const seeded = await seed().catch((error: unknown) => {
    if (error instanceof SeedConflict) fail(error.message);
    throw error;
  });
  closeDb();
  if (seeded.generatedPassword) {
    say(`Main admin created: ${seeded.adminEmail} / ${seeded.generatedPassword}`);
    say('This password is shown once. Change it from the profile page.');
  }

  const redis = await findOrStartRedis(config.REDIS_URL, config.DATA_DIR, say);
  const { persistent } = await checkRedis(redis.url, config.REDIS_PREFIX, config.INSTALL_ID);
  if (persistent === false)
    say(
      `Warning: the Redis at ${redis.url} keeps nothing on disk (appendonly no, no save points): ` +
        'a Redis restart loses every queued job. The worker re-enqueues owed work within a ' +
        'minute, but jobs under way are redone. Turn on persistence: redis-cli CONFIG SET ' +
        'appendonly yes (and set it in redis.conf).',
    );
  writePidFile(config.DATA_DIR);
  const childEnv = { ...process.env, REDIS_URL: redis.url };
  const run = (script: string) =>
    spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit', env: childEnv });
  const children: ChildProcess[] = [run('scripts/web.ts'), run('jobs/worker.ts')];

  let stopping = false;
  const stopAll = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    // A child that outlives its own shutdown limit is not left behind as an orphan.
    setTimeout(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    }, config.SHUTDOWN_TIMEOUT_MS + 5_000).unref();
    void Promise.all(
      children.map((child) =>
        child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null,
      ),
    ).then(() => {
      redis.child?.kill('SIGTERM');
      removePidFile(config.DATA_DIR);
      process.exit(exitCode);
    });
  };
  for (const child of children) {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      console.error(`[coursegen] a process stopped unexpectedly (code ${code}, signal ${signal})`);
      stopAll(1);
    });
  }
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));

  // Said only once the port answers: several web processes starting together on a busy machine
  // may take longer than any fixed limit, and one that keeps dying is logged meanwhile.
  if (!(await waitForHealth(config.PORT, () => stopping))) return;
  const mode = config.demo
    ? 'demo mode: AI and payments are simulated'
    : 'live mode: real AI and payment providers';
  say(`CourseGen is running at ${config.APP_URL} (${mode})`);
}

async function waitForHealth(port: number, stopped: () => boolean): Promise<boolean> {
  while (!stopped()) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.status === 200 || response.status === 503) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
