import type { IncomingMessage, ServerResponse } from 'node:http';

/** Methods that only read: they never wait for a turn. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes take turns in a web process; reads never wait for them (issue 16, ADR 0026). A burst of
 * writes (200 members pressing Create at once) otherwise runs all at once, interleaved step by
 * step with every page being rendered, so a visitor's page waits for the whole burst. Here at
 * most `concurrent` writes are under way; the rest wait, parsed but unread, costing nothing, in
 * the order they came. A write gives up its turn when its answer is finished (or its connection
 * closes), or after `turnMs`: one that has run that long is waiting on something (a payment
 * provider, a stream to the browser), not using the CPU, and must not hold the others up.
 */
export function writeTurns({ concurrent, turnMs }: { concurrent: number; turnMs: number }) {
  let running = 0;
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

  return {
    /** Runs `handle` for the request now, or when a turn is free. */
    take(req: IncomingMessage, res: ServerResponse, handle: () => void) {
      if (READS.has(req.method ?? 'GET')) return handle();
      if (running < concurrent) start(res, handle);
      else waiting.push({ res, handle });
    },
    /** Writes under way and writes waiting: for tests and logs. */
    counts: () => ({ running, waiting: waiting.length }),
  };
}
