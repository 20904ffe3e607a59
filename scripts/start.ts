import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkWebProcess, webProcessCount } from '../server/cluster';
import { supervisor } from '../server/supervise';
import { describeDatabase } from '~/utils/database-selection.server';
import { EnvError, parseEnv, readDataFiles, type Env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { nodeMetrics } from '~/utils/node-metrics.server';
import { checkRedis, locateRedis, redisComesUp } from './lib/redis';
import { describeHolder, lockDataDir, type DataDirLock } from './lib/data-dir-lock';

/**
 * `npm start` (compiled: `node build/bin/start.js`, the Docker image's command) and `npm run dev`
 * (`--dev`, from the sources): everything a fresh machine needs, then the processes, kept
 * running (ADR 0029). It migrates and seeds in a short-lived process, finds Redis or starts a
 * private one, then runs the web processes (WEB_CONCURRENCY of them on one port, ADR 0016; in
 * development one, with Vite) and the worker. A process that dies is started again after a
 * capped back-off while the others keep serving; a private Redis that keeps dying stops the app
 * with exit code 1, so a restart policy can bring it back. On SIGTERM or SIGINT it stops them
 * all and exits only after every one has.
 *
 * PROCESSES=web or worker runs only that part on this node (several nodes, one PostgreSQL
 * database: see "Running on several nodes" in docs/self-hosting.md); the database is prepared either way.
 */
const say = (line: string) => console.log(`[coursegen] ${line}`);
const dev = process.argv.includes('--dev');
/** build/bin when compiled; scripts/ when run from the sources (development). */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, dev ? '..' : '../..');

/** Deaths in a row, each soon after its start, after which a private Redis is given up. */
const REDIS_GIVE_UP_AFTER = 5;
/** Time the start keeps, after its children's own shutdown limit, to stop Redis and go. */
const REDIS_STOP_MS = 1_500;

function fail(message: string): never {
  console.error(`[coursegen] ${message}`);
  process.exit(1);
}

/** A child running one of the app's entries: compiled with plain node, or a source with tsx. */
function runEntry(compiled: string, source: string, env: NodeJS.ProcessEnv): ChildProcess {
  const args = dev
    ? ['--import', 'tsx', path.join(root, source)]
    : [path.join(root, 'build', 'bin', compiled)];
  // The web and worker processes get an IPC channel too: a web process learns the restart counts
  // through it.
  return spawn(process.execPath, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function main() {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  process.env.NODE_ENV ??= dev ? 'development' : 'production';

  const readConfig = () => {
    try {
      const parsed = parseEnv();
      readDataFiles(parsed);
      return parsed;
    } catch (error) {
      if (error instanceof EnvError) fail(error.message);
      throw error;
    }
  };
  let config: Env = readConfig();
  if (config.NODE_ENV === 'production' && !process.env.APP_URL)
    say(
      `Warning: APP_URL is not set, so links in emails (password resets, receipts) point at ` +
        `${config.APP_URL}. Set APP_URL to the address members open (e.g. https://courses.example.com).`,
    );
  // The data folder is locked while this start keeps data in it (ADR 0045): the SQLite
  // database from now on, a private Redis once one is needed. With PostgreSQL and an outside
  // Redis (several nodes) the node keeps nothing there, so it takes no lock and needs no folder.
  let lock: DataDirLock | undefined;
  const lockDataFolder = () => {
    if (lock) return;
    const taken = lockDataDir(config.DATA_DIR);
    if ('heldBy' in taken)
      fail(
        `CourseGen is already running on ${config.DATA_DIR}${describeHolder(taken.heldBy)}. ` +
          'Stop it first.',
      );
    lock = taken.lock;
  };
  if (!config.DATABASE_URL) lockDataFolder();

  // Web processes show the restart counts on /healthz: each gets them when it starts to serve
  // and after every restart.
  const tell = (child: ChildProcess) => {
    if (child.connected) child.send({ restarts: processes.restarts() });
  };
  const processes = supervisor({
    log,
    onRestart: () => processes.children().forEach(tell),
    onGiveUp: (name) => void stop(1, `${name} kept stopping`),
    // The node's metrics: a web process (or the worker-only node's worker) asked for /metrics
    // asks here, and gets every kept process's summed (ADR 0056).
    onMessage: (child, message) => metrics.onMessage(child, message),
  });
  const metrics = nodeMetrics(() => processes.children());
  let stopping = false;
  let preparing: ChildProcess | undefined;
  async function stop(code: number, reason?: string) {
    if (stopping) return;
    stopping = true;
    if (reason) console.error(`[coursegen] stopping: ${reason}`);
    preparing?.kill('SIGTERM');
    await processes.stop(config.SHUTDOWN_TIMEOUT_MS + 1_000, REDIS_STOP_MS);
    lock?.release();
    process.exit(code);
  }
  // From here on a signal stops whatever has started. `on`, not `once`: the same signal may
  // arrive twice (the process group and a supervisor).
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  say(`Database: ${describeDatabase(config)}`);
  const prepare = async () => {
    preparing = runEntry('prepare.js', 'scripts/prepare.ts', process.env);
    const code = await exitCode(preparing);
    preparing = undefined;
    return code;
  };
  const findRedis = () =>
    locateRedis(config.REDIS_URL, config.DATA_DIR, say, { privateOnly: config.REDIS_PRIVATE });
  let redis: Awaited<ReturnType<typeof findRedis>>;
  if (config.DATABASE_URL) {
    // The install id (the default Redis prefix) is kept in PostgreSQL: prepared first, then read.
    const prepared = await prepare();
    if (stopping) return;
    if (prepared !== 0) process.exit(1);
    const { ensureInstallId } = await import('~/utils/install-id.server');
    await ensureInstallId();
    config = readConfig();
    redis = await findRedis();
  } else {
    // The database and Redis are readied side by side; neither needs the other.
    const [prepared, found] = await Promise.all([prepare(), findRedis()]);
    if (stopping) return;
    if (prepared !== 0) process.exit(1);
    redis = found;
  }
  if (redis.startPrivate) {
    lockDataFolder();
    processes.keep('redis', redis.startPrivate, { giveUpAfter: REDIS_GIVE_UP_AFTER, last: true });
    if (!(await redisComesUp(redis.url)))
      return stop(1, `redis-server did not start at ${redis.url}`);
  }
  const { persistent } = await checkRedis(redis.url, config.REDIS_PREFIX, config.INSTALL_ID);
  if (persistent === false)
    say(
      `Warning: the Redis at ${redis.url} keeps nothing on disk (appendonly no, no save points): ` +
        'a Redis restart loses every queued job. The worker re-enqueues owed work within a ' +
        'minute, but jobs under way are redone. Turn on persistence: redis-cli CONFIG SET ' +
        'appendonly yes (and set it in redis.conf).',
    );
  if (stopping) return;
  const childEnv = { ...process.env, REDIS_URL: redis.url };

  const runs = { web: config.PROCESSES !== 'worker', worker: config.PROCESSES !== 'web' };
  if (!runs.web) {
    // No web process here: the worker answers /healthz on PORT itself (below).
  } else if (dev) {
    processes.keep('web', () => runEntry('', 'server/dev.ts', childEnv));
  } else {
    const exec = path.join(root, 'build', 'bin', 'web-process.js');
    const count = webProcessCount(config.WEB_CONCURRENCY);
    for (let slot = 0; slot < count; slot += 1)
      processes.keep('web', () => forkWebProcess(exec, { REDIS_URL: redis.url }, tell), {
        slot,
      });
  }
  const mode = config.demo
    ? 'demo mode: AI and payments are simulated'
    : 'live mode: real AI and payment providers';
  // Said only once the port answers: several web processes starting together on a busy machine
  // may take longer than any fixed limit, and one that keeps dying is logged meanwhile. The
  // worker starts then: members are served sooner, and jobs wait in Redis for a second.
  if (runs.web && !(await waitForHealth(config.PORT, () => stopping))) return;
  if (runs.worker) processes.keep('worker', () => runEntry('worker.js', 'jobs/main.ts', childEnv));
  if (!runs.web) {
    // Here the worker answers /healthz on PORT itself (ADR 0045): running once it does.
    if (!(await waitForHealth(config.PORT, () => stopping))) return;
    say(
      `CourseGen's worker is running, no web process (PROCESSES=worker; ${mode}); ` +
        `its health on port ${config.PORT}, /healthz`,
    );
    return;
  }
  const only = runs.worker ? '' : ', no worker (PROCESSES=web)';
  // Only APP_URL names the address members open: behind a container's port mapping or a proxy,
  // localhost and PORT are not it.
  if (config.appUrlConfigured) say(`CourseGen is running at ${config.APP_URL} (${mode}${only})`);
  else
    say(
      `CourseGen is running, listening on port ${config.PORT} (${mode}${only}); ` +
        'set APP_URL to the address members open',
    );
}

async function waitForHealth(port: number, stopped: () => boolean): Promise<boolean> {
  while (!stopped()) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.status === 200 || response.status === 503) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
