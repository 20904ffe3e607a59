import { Redis } from 'ioredis';
import { env } from './env.server';
import { log } from './logger.server';
import { singleton } from './singleton.server';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export function redisUrl(): string {
  return env().REDIS_URL ?? DEFAULT_REDIS_URL;
}

function connect(role: 'producer' | 'worker' | 'subscriber'): Redis {
  const connection = new Redis(redisUrl(), {
    // Workers block on Redis and must never give up a command; producers fail
    // fast so a request never hangs while Redis is away.
    maxRetriesPerRequest: role === 'producer' ? 1 : null,
    enableOfflineQueue: role !== 'producer',
    // Named after the install's prefix, so `CLIENT LIST` shows whose connection it is.
    connectionName: `${env().REDIS_PREFIX}-${role}`,
  });
  connection.on('error', (error) => log.warn('redis.error', { role, message: error.message }));
  return connection;
}

type Connections = { producer?: Redis; worker?: Redis; subscriber?: Redis };

function connections(): Connections {
  return singleton<Connections>('redis', () => ({}));
}

/** Shared by queue producers, rate limits and the healthcheck. */
export function producerRedis(): Redis {
  const pool = connections();
  pool.producer ??= connect('producer');
  return pool.producer;
}

/** The web process's one connection in subscriber mode (change notifications). */
export function subscriberRedis(): Redis {
  const pool = connections();
  pool.subscriber ??= connect('subscriber');
  return pool.subscriber;
}

/** Only the worker process opens this one. */
export function workerRedis(): Redis {
  const pool = connections();
  pool.worker ??= connect('worker');
  return pool.worker;
}

/** Whether jobs can be enqueued right now (the producer connection is up). */
export function jobServiceUp(): boolean {
  return producerRedis().status === 'ready';
}

/** Resolves once the producer connection is ready, or rejects after `timeoutMs`. */
export async function waitForRedis(timeoutMs = 5000): Promise<void> {
  const redis = producerRedis();
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`Redis at ${redisUrl()} did not answer`));
    }, timeoutMs);
    redis.once('ready', onReady);
  });
}

export async function closeRedis() {
  const pool = connections();
  await Promise.allSettled([pool.producer?.quit(), pool.worker?.quit(), pool.subscriber?.quit()]);
  delete pool.producer;
  delete pool.worker;
  delete pool.subscriber;
}
