import type { Redis } from 'ioredis';
import { log } from './logger.server';

/**
 * While Redis is away, every connection reports each failed reconnect, and every BullMQ worker
 * and queue sharing a connection repeats it: about 43 lines a second from an idle worker. An
 * outage is one event, so it is logged as one (ADR 38): `redis.down` when the first failure
 * shows Redis is unreachable, `redis.still_down` once a summary interval with how many failures
 * it swallowed, `redis.back` when every connection this process watches is ready again. Errors
 * that are not about reaching Redis (a script error, a bad command) are left to their callers.
 */

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_SOCKET_CLOSED',
]);

const CONNECTION_ERROR_MESSAGE =
  /Connection is closed|Stream isn't writeable|max retries per request|Reached the max retries|connect ETIMEDOUT|ECONNREFUSED|ECONNRESET|did not answer/i;

/** Errors that say Redis cannot be reached (rather than that it refused what was asked). */
export function isRedisConnectionError(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 4; depth += 1) {
    if (!(cause instanceof Error)) return false;
    const code = (cause as NodeJS.ErrnoException).code;
    if (code && CONNECTION_ERROR_CODES.has(code)) return true;
    if (
      cause.name === 'MaxRetriesPerRequestError' ||
      cause.name === 'JobServiceUnavailable' ||
      CONNECTION_ERROR_MESSAGE.test(cause.message)
    )
      return true;
    cause = cause.cause;
  }
  return false;
}

/** How soon an outage that was only a blip (every connection ready again) is called over. */
const BACK_CHECK_MS = 1_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface OutageWatch {
  /** Follows a connection: its errors are counted here, its return may end the outage. */
  watch(connection: Redis, role: string): void;
  /**
   * Reports an error from Redis or a client of it. True when it is part of an outage (counted,
   * and the caller logs nothing); false when the caller should log it as usual.
   */
  failed(source: string, error: unknown): boolean;
  /** Whether this process knows Redis is unreachable right now. */
  isDown(): boolean;
  /** Runs `listener` each time Redis comes back after an outage; returns how to stop. */
  onBack(listener: () => void): () => void;
  /** Forgets every connection and stops the summary timer (the process closes Redis). */
  reset(): void;
}

export function createOutageWatch({
  summaryMs,
  now = Date.now,
}: {
  summaryMs: number;
  now?: () => number;
}): OutageWatch {
  const connections = new Set<Redis>();
  const listeners = new Set<() => void>();
  let outage:
    | {
        since: number;
        failures: number;
        sinceSummary: number;
        lastError: string;
        timers: NodeJS.Timeout[];
      }
    | undefined;

  /** Every watched connection is ready (a connection closed on purpose no longer counts). */
  const allReady = () =>
    [...connections].every(
      (connection) => connection.status === 'ready' || connection.status === 'end',
    );

  function begin(source: string, error: unknown) {
    const timer = setInterval(summarise, summaryMs);
    timer.unref();
    // A failure that was a one-off (a reset connection that came straight back) ends here.
    const check = setInterval(() => {
      if (allReady()) end();
    }, BACK_CHECK_MS);
    check.unref();
    outage = {
      since: now(),
      failures: 0,
      sinceSummary: 0,
      lastError: message(error),
      timers: [timer, check],
    };
    log.warn('redis.down', { pid: process.pid, source, error: message(error) });
  }

  function summarise() {
    if (!outage) return;
    log.warn('redis.still_down', {
      pid: process.pid,
      downForMs: now() - outage.since,
      failures: outage.sinceSummary,
      lastError: outage.lastError,
    });
    outage.sinceSummary = 0;
  }

  function end() {
    if (!outage) return;
    for (const timer of outage.timers) clearInterval(timer);
    log.info('redis.back', {
      pid: process.pid,
      downForMs: now() - outage.since,
      failures: outage.failures,
    });
    outage = undefined;
    for (const listener of listeners) listener();
  }

  function failed(source: string, error: unknown): boolean {
    // Anything else (a script error, a lock a job lost once Redis was back) is its caller's to log.
    if (!isRedisConnectionError(error)) return false;
    if (!outage) begin(source, error);
    outage!.failures += 1;
    outage!.sinceSummary += 1;
    outage!.lastError = message(error);
    return true;
  }

  return {
    watch(connection, role) {
      connections.add(connection);
      connection.on('error', (error: Error) => {
        if (!failed(role, error)) log.warn('redis.error', { role, message: error.message });
      });
      connection.on('ready', () => {
        if (outage && allReady()) end();
      });
    },
    failed,
    isDown: () => outage !== undefined,
    onBack(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset() {
      for (const timer of outage?.timers ?? []) clearInterval(timer);
      outage = undefined;
      connections.clear();
    },
  };
}
