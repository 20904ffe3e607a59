import { Redis } from 'ioredis';
import { env } from './env.server';
import { createOutageWatch, type OutageWatch } from './redis-outage.server';
import { singleton } from './singleton.server';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

function redisUrl(): string {
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
  outageWatch().watch(connection, role);
  return connection;
}

type Connections = {
  producer?: Redis;
  worker?: Redis;
  subscriber?: Redis;
  outage?: OutageWatch;
};

function connections(): Connections {
  return singleton<Connections>('redis', () => ({}));
}

/** This process's view of whether Redis is reachable, shared by its connections (ADR 38). */
function outageWatch(): OutageWatch {
  const pool = connections();
  pool.outage ??= createOutageWatch({ summaryMs: env().REDIS_OUTAGE_SUMMARY_MS });
  return pool.outage;
}

/**
 * Reports an error from a Redis client (a BullMQ worker or queue, the sweep). True when it is
 * part of an outage, which is logged once for all of them; false when the caller should log it.
 */
export function noteRedisFailure(source: string, error: unknown): boolean {
  return outageWatch().failed(source, error);
}

/** Runs `listener` each time Redis comes back after an outage; returns how to stop. */
export function onRedisBack(listener: () => void): () => void {
  return outageWatch().onBack(listener);
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

/**
 * Subscribes the subscriber connection to `channel` once it is ready. ioredis writes a SUBSCRIBE
 * at once while its connection handshake is still under way; the ready check's INFO that follows
 * is then refused in subscriber mode, the connection starts over and the subscription is lost,
 * silently for whoever waits on its messages (ADR 44). Here the command waits for `ready`, after
 * which ioredis also renews the subscription by itself on every reconnection.
 */
export async function subscribeWhenReady(channel: string): Promise<void> {
  const redis = subscriberRedis();
  if (redis.status !== 'ready')
    await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  await redis.subscribe(channel);
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

/**
 * Resolves once the producer connection is ready. Rejects at once while this process knows Redis
 * is down (a request must not wait on an outage: the database owns the work, ADR 13 and 38), or
 * as soon as a connection being made fails, or after `timeoutMs`.
 */
export async function waitForRedis(timeoutMs = 5000): Promise<void> {
  const redis = producerRedis();
  if (redis.status === 'ready') return;
  const unreachable = () => new Error(`Redis at ${redisUrl()} did not answer`);
  if (outageWatch().isDown()) throw unreachable();
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => settle();
    const onError = (error: Error) => settle(Object.assign(unreachable(), { cause: error }));
    const timer = setTimeout(() => settle(unreachable()), timeoutMs);
    redis.once('ready', onReady);
    redis.once('error', onError);
  });
}

export async function closeRedis() {
  const pool = connections();
  pool.outage?.reset();
  await Promise.allSettled([pool.producer?.quit(), pool.worker?.quit(), pool.subscriber?.quit()]);
  delete pool.producer;
  delete pool.worker;
  delete pool.subscriber;
}
