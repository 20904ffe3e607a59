import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { aptInstall, commandExists, freePort } from './system';

const DEFAULT_URL = 'redis://127.0.0.1:6379';

export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
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

/**
 * REDIS_URL if given (it must answer); else a Redis on 127.0.0.1:6379; else a
 * private redis-server with its data under DATA_DIR/redis, installed with
 * apt-get when missing and we are root on Debian; else a clear instruction.
 */
export async function findOrStartRedis(
  configuredUrl: string | undefined,
  dataDir: string,
  log: (line: string) => void,
): Promise<FoundRedis> {
  if (configuredUrl) {
    if (await redisAnswers(configuredUrl)) return { url: configuredUrl };
    throw new Error(`REDIS_URL is set to ${configuredUrl} but no Redis answers there.`);
  }
  if (await redisAnswers(DEFAULT_URL)) return { url: DEFAULT_URL };

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
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--save',
      '60 1',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let tries = 0; tries < 50; tries += 1) {
    if (await redisAnswers(url, 500)) return { url, child };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`redis-server did not start on port ${port}.`);
}
