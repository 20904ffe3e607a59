import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorJson } from './json-error';

/** Methods that only read: they never wait for a turn. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes that never wait for a turn: a payment provider's webhook, and a member signing in, up
 * or out, must not queue behind a burst of course creation. They are short.
 */
const URGENT_PATH = /^\/(webhooks\/|(api\/)?(signin|signup|logout|forgot|reset-password)(\/|$))/;

export interface WriteTurnOptions {
  /** Writes under way at once. Two keep the CPU busy, as a write mostly computes. */
  concurrent?: number;
  /** How long one write may keep its turn. */
  turnMs?: number;
  /** Writes that may wait; beyond, a write is refused with 503 and Retry-After. */
  maxWaiting?: number;
  log?: { warn: (event: string, fields?: Record<string, unknown>) => void };
}

/** Refusals are logged once a second at most, with how many there were since the last line. */
const REFUSAL_LOG_MS = 1_000;

/**
 * Writes take turns in a web process; reads never wait for them (ADR 0026, 0028). A burst of
 * writes (200 members pressing Create at once) otherwise runs all at once, interleaved step by
 * step with every page being rendered, so a visitor's page waits for the whole burst. Here at
 * most `concurrent` writes are under way; the rest wait, parsed but unread, costing nothing, in
 * the order they came, up to `maxWaiting` (beyond, a 503 asks the client to come back: an
 * unbounded queue only turns an overload into timeouts). A write gives up its turn when its
 * answer is finished (or its connection closes), or after `turnMs`: one that has run that long
 * is waiting on something (a payment provider, a stream to the browser), not using the CPU.
 */
export function writeTurns({
  concurrent = 2,
  turnMs = 100,
  maxWaiting = 256,
  log,
}: WriteTurnOptions = {}) {
  let running = 0;
  let refused = 0;
  let refusedSinceLog = 0;
  let lastRefusalLog = 0;
  const waiting: { res: ServerResponse; handle: () => void }[] = [];

  const startWaiting = () => {
    while (running < concurrent && waiting.length > 0) {
      const { res, handle } = waiting.shift()!;
      // Its client gave up while it waited.
      if (res.socket?.destroyed ?? true) continue;
      start(res, handle);
    }
  };

  const start = (res: ServerResponse, handle: () => void) => {
    running += 1;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      running -= 1;
      startWaiting();
    };
    const timer = setTimeout(end, turnMs);
    res.once('finish', end);
    res.once('close', end);
    handle();
  };

  const refuse = (res: ServerResponse) => {
    refused += 1;
    refusedSinceLog += 1;
    const now = Date.now();
    if (now - lastRefusalLog >= REFUSAL_LOG_MS) {
      log?.warn('web.writes_refused', {
        refused: refusedSinceLog,
        total: refused,
        waiting: maxWaiting,
      });
      lastRefusalLog = now;
      refusedSinceLog = 0;
    }
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
    res.end(errorJson('The server is busy. Please try again.', 'server_busy'));
  };

  return {
    /** Runs `handle` for the request now, or when a turn is free, or refuses it when too many wait. */
    take(req: IncomingMessage, res: ServerResponse, handle: () => void) {
      if (READS.has(req.method ?? 'GET') || URGENT_PATH.test(req.url ?? '/')) return handle();
      if (running < concurrent) start(res, handle);
      else if (waiting.length < maxWaiting) waiting.push({ res, handle });
      else refuse(res);
    },
    /** Writes under way, writes waiting, and writes refused since the process started. */
    counts: () => ({ running, waiting: waiting.length, refused }),
  };
}
