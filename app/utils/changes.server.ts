import { env } from './env.server';
import { log } from './logger.server';
import {
  noteRedisFailure,
  producerRedis,
  subscribeWhenReady,
  subscriberRedis,
} from './redis.server';

/**
 * "Something about this outline or course changed": the worker publishes it on Redis when it
 * writes, and every web process wakes the status requests waiting on it. Several web processes
 * each hold one subscription; a lost message only delays a page until its next safety check.
 */
export type ChangeKey = `outline:${string}` | `course:${string}`;

const channel = () => `${env().REDIS_PREFIX}:changed`;

export function publishChange(key: ChangeKey) {
  producerRedis()
    .publish(channel(), key)
    .catch((error: unknown) => {
      // An outage is logged once by the outage watch, not once per change.
      if (!noteRedisFailure('changes.publish', error))
        log.warn('changes.publish_failed', { key, error });
    });
}

const waiters = new Map<string, Set<() => void>>();
let subscribed = false;
let listening = false;

function subscribe() {
  if (subscribed) return;
  subscribed = true;
  if (!listening) {
    listening = true;
    subscriberRedis().on('message', (from: string, key: string) => {
      if (from !== channel()) return;
      const woken = waiters.get(key);
      if (!woken) return;
      waiters.delete(key);
      for (const wake of woken) wake();
    });
  }
  subscribeWhenReady(channel()).catch((error: unknown) => {
    subscribed = false;
    log.warn('changes.subscribe_failed', { error });
  });
}

/** Resolves at the next change of `key`, or after `ms`, or when `signal` aborts. */
export function nextChange(key: ChangeKey, ms: number, signal: AbortSignal): Promise<void> {
  subscribe();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      waiters.get(key)?.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    let set = waiters.get(key);
    if (!set) waiters.set(key, (set = new Set()));
    set.add(done);
  });
}
