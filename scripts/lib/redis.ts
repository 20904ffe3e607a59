import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { aptInstall, commandExists, freePort } from './system';

const DEFAULT_URL = 'redis://127.0.0.1:6379';

async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export interface FoundRedis {
  url: string;
  /** Set when we started a private redis-server; stop it when the app stops. */
  child?: ChildProcess;
}

export interface LocatedRedis {
  url: string;
  /** Set when no Redis is given or found: starts a private redis-server at `url` (again). */
  startPrivate?: () => ChildProcess;
}

/**
 * REDIS_URL if given (it must answer); else, unless `privateOnly`, a Redis on 127.0.0.1:6379;
 * else a private redis-server with its data under DATA_DIR/redis, installed with apt-get when
 * missing and we are root on Debian; else a clear instruction. The private one is not started
 * here: `startPrivate` starts it, as often as it has to be (ADR 0029).
 */
export async function locateRedis(
  configuredUrl: string | undefined,
  dataDir: string,
  log: (line: string) => void,
  { privateOnly = false }: { privateOnly?: boolean } = {},
): Promise<LocatedRedis> {
  if (configuredUrl) {
    if (await redisAnswers(configuredUrl)) return { url: configuredUrl };
    throw new Error(`REDIS_URL is set to ${configuredUrl} but no Redis answers there.`);
  }
  if (!privateOnly && (await redisAnswers(DEFAULT_URL))) return { url: DEFAULT_URL };

  if (!commandExists('redis-server') && !aptInstall(['redis-server'], log)) {
    throw new Error(
      'No Redis answers on 127.0.0.1:6379 and redis-server is not installed.\n' +
        'Install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis)\n' +
        'or point REDIS_URL at a running Redis, then start again.',
    );
  }
  const port = await freePort();
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  log(`Starting a private redis-server on 127.0.0.1:${port} (data in ${dir})`);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
  const persistence = ['--appendonly', 'yes', '--save', '60 1'];
  return {
    url: `redis://127.0.0.1:${port}`,
    startPrivate: () =>
      spawn('redis-server', [...args, ...persistence], { stdio: ['ignore', 'ignore', 'inherit'] }),
  };
}

/** Waits until the Redis at `url` answers; false if `child` (its server) exits first or 5 s pass. */
export async function redisComesUp(url: string, child?: ChildProcess): Promise<boolean> {
  for (let tries = 0; tries < 50; tries += 1) {
    if (await redisAnswers(url, 500)) return true;
    if (child && child.exitCode !== null) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** `locateRedis`, starting the private server at once (the test runner's Redis). */
export async function findOrStartRedis(
  configuredUrl: string | undefined,
  dataDir: string,
  log: (line: string) => void,
): Promise<FoundRedis> {
  const located = await locateRedis(configuredUrl, dataDir, log);
  if (!located.startPrivate) return { url: located.url };
  const child = located.startPrivate();
  if (await redisComesUp(located.url, child)) return { url: located.url, child };
  child.kill();
  throw new Error(`redis-server did not start at ${located.url}.`);
}

export interface RedisCheck {
  /** False when the Redis keeps nothing on disk; null when it does not say (CONFIG disabled). */
  persistent: boolean | null;
}

/**
 * Looks at the Redis the app will use: whether it keeps jobs across its own restart, and
 * whether the key prefix is this install's. The first install to use a prefix marks it with its
 * id; another install (another data folder) on the same prefix would run, and fail, the first
 * one's jobs, so it is refused.
 */
export async function checkRedis(
  url: string,
  prefix: string,
  installId: string,
): Promise<RedisCheck> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const ownerKey = `${prefix}:install-id`;
    await client.set(ownerKey, installId, 'NX');
    const owner = await client.get(ownerKey);
    if (owner !== installId)
      throw new Error(
        `The Redis prefix "${prefix}" at ${url} belongs to another CourseGen install (${owner}); ` +
          `this one (${installId}, in DATA_DIR) must not run its jobs. Set REDIS_PREFIX to a ` +
          `prefix of its own, or, if that install is gone, delete its mark: ` +
          `redis-cli DEL ${ownerKey}`,
      );
    try {
      const [, appendonly] = (await client.config('GET', 'appendonly')) as string[];
      const [, save] = (await client.config('GET', 'save')) as string[];
      return { persistent: appendonly === 'yes' || Boolean(save?.trim()) };
    } catch {
      return { persistent: null };
    }
  } finally {
    client.disconnect();
  }
}
