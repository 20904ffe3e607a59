/**
 * Server-sent events written as they happen: for an EventSource (a lesson being written) and for
 * a streamed POST answer (the tutor), both read the same frames. `no-transform` keeps the
 * compression middleware (and proxies honouring it) from holding pieces back to compress them.
 */
export interface EventStream {
  send: (event: string, data: unknown) => void;
  close: () => void;
  /** Aborts when the stream ends: closed here, by the browser leaving, or at its lifetime. */
  signal: AbortSignal;
}

export interface EventStreamOptions {
  /** Closed after this long; an EventSource then reconnects by itself. */
  lifetimeMs?: number;
  /** Called once, when the stream ends for any reason. */
  onClose?: () => void;
}

const HEARTBEAT_MS = 15_000;
/** How long an EventSource waits before reconnecting. */
const RECONNECT_MS = 2_000;

/** The open streams a browser reopens by itself. */
const reconnectable = new Set<() => void>();

/**
 * Ends every stream the browser reopens by itself (those with a lifetime), so a web process that
 * is asked to stop is not held open by them: the pages reconnect to another process or to the
 * restarted one. Answers under way (the tutor's) are left to finish.
 */
export function closeReconnectableStreams() {
  for (const close of reconnectable) close();
}

export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

export function eventStreamResponse(
  request: Request,
  options: EventStreamOptions,
  run: (out: EventStream) => void | Promise<void>,
): Response {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const timers: ReturnType<typeof setTimeout>[] = [];

  const end = () => {
    if (stop.signal.aborted) return;
    stop.abort();
    for (const timer of timers) clearTimeout(timer);
    options.onClose?.();
  };
  const write = (text: string) => {
    if (stop.signal.aborted) return;
    try {
      controller?.enqueue(encoder.encode(text));
    } catch {
      end();
    }
  };
  const out: EventStream = {
    send: (event, data) => write(sseFrame(event, data)),
    close: () => {
      if (stop.signal.aborted) return;
      end();
      try {
        controller?.close();
      } catch {
        // already closed by the other side
      }
    },
    signal: stop.signal,
  };

  if (request.signal.aborted) end();
  else request.signal.addEventListener('abort', out.close, { once: true });
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      write(`retry: ${RECONNECT_MS}\n\n`);
      const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
      stop.signal.addEventListener('abort', () => clearInterval(heartbeat), { once: true });
      if (options.lifetimeMs) {
        timers.push(setTimeout(out.close, options.lifetimeMs));
        reconnectable.add(out.close);
        stop.signal.addEventListener('abort', () => reconnectable.delete(out.close), {
          once: true,
        });
      }
      void Promise.resolve(run(out)).catch(() => out.close());
    },
    cancel: end,
  });
  return new Response(body, { headers: EVENT_STREAM_HEADERS });
}
