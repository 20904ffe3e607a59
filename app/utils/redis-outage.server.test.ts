import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from './logger.server';
import { createOutageWatch, isRedisConnectionError } from './redis-outage.server';

/** Stands in for an ioredis connection: a status and the events the watch listens to. */
class FakeConnection extends EventEmitter {
  status = 'ready';
  drop() {
    this.status = 'reconnecting';
  }
  reconnect() {
    this.status = 'ready';
    this.emit('ready');
  }
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

let lines: { level: string; event: string; fields: Record<string, unknown> }[];

beforeEach(() => {
  vi.useFakeTimers();
  lines = [];
  for (const level of ['info', 'warn', 'error'] as const)
    vi.spyOn(log, level).mockImplementation((event, fields = {}) => {
      lines.push({ level, event, fields });
    });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function watched(summaryMs = 60_000) {
  const watch = createOutageWatch({ summaryMs });
  const worker = new FakeConnection();
  const producer = new FakeConnection();
  watch.watch(worker as unknown as Redis, 'worker');
  watch.watch(producer as unknown as Redis, 'producer');
  return { watch, worker, producer };
}

describe('a Redis outage in the log', () => {
  it('is one line when it starts, one a minute while it lasts, one when it ends', () => {
    const { watch, worker, producer } = watched();
    const back = vi.fn();
    watch.onBack(back);
    worker.drop();
    producer.drop();
    // What an idle worker saw each second on main: every connection, worker and queue failing.
    for (let second = 0; second < 150; second += 1) {
      for (let i = 0; i < 20; i += 1) worker.emit('error', refused());
      for (let i = 0; i < 20; i += 1) expect(watch.failed('worker:lesson', refused())).toBe(true);
      producer.emit('error', refused());
      vi.advanceTimersByTime(1_000);
    }
    worker.reconnect();
    expect(watch.isDown()).toBe(true); // the producer is not back yet
    producer.reconnect();

    expect(lines.map((line) => line.event)).toEqual([
      'redis.down',
      'redis.still_down',
      'redis.still_down',
      'redis.back',
    ]);
    expect(lines[1]!.fields).toMatchObject({ downForMs: 60_000, failures: 60 * 41 });
    expect(lines[3]!.fields).toMatchObject({ downForMs: 150_000, failures: 150 * 41 });
    expect(back).toHaveBeenCalledTimes(1);
    expect(watch.isDown()).toBe(false);
  });

  it('leaves an error that is not about reaching Redis to its caller, outage or not', () => {
    const { watch, worker } = watched();
    expect(watch.failed('queue:mail', new Error('ERR Error running script'))).toBe(false);
    worker.emit('error', new Error('WRONGTYPE Operation against a key holding the wrong kind'));
    expect(lines.map((line) => line.event)).toEqual(['redis.error']);
    expect(watch.isDown()).toBe(false);
    worker.drop();
    expect(watch.failed('worker:lesson', refused())).toBe(true);
    expect(watch.failed('worker:lesson', new Error('could not renew lock for job 7'))).toBe(false);
  });

  it('calls a connection reset that came straight back over within a second', () => {
    const { watch } = watched();
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(watch.failed('worker:quiz', reset)).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(lines.map((line) => line.event)).toEqual(['redis.down', 'redis.back']);
    expect(watch.isDown()).toBe(false);
  });

  it('counts a new outage after the last one ended', () => {
    const { worker } = watched();
    for (let outage = 0; outage < 2; outage += 1) {
      worker.drop();
      worker.emit('error', refused());
      worker.emit('error', refused());
      worker.reconnect();
    }
    expect(lines.map((line) => line.event)).toEqual([
      'redis.down',
      'redis.back',
      'redis.down',
      'redis.back',
    ]);
  });
});

describe('isRedisConnectionError', () => {
  it('knows the ways a client says Redis cannot be reached', () => {
    expect(isRedisConnectionError(refused())).toBe(true);
    expect(isRedisConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(
      isRedisConnectionError(
        new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      ),
    ).toBe(true);
    const unavailable = new Error('The job service (Redis) is not reachable', {
      cause: refused(),
    });
    unavailable.name = 'JobServiceUnavailable';
    expect(isRedisConnectionError(unavailable)).toBe(true);
    expect(isRedisConnectionError(new Error('wrapped', { cause: refused() }))).toBe(true);
    expect(isRedisConnectionError(new Error('ERR unknown command'))).toBe(false);
    expect(isRedisConnectionError('ECONNREFUSED')).toBe(false);
  });
});
