import type { Response as ExpressResponse } from 'express';

/**
 * Writes a Remix response to the socket, reading its body only as fast as the client takes it.
 *
 * Remix's express adapter (`sendRemixResponse`) writes every chunk as soon as the body yields it
 * and never waits for the socket to drain, so a streamed download (the data export, ADR 60) to a
 * slow client piles up in the process's memory, however lazily the stream is made. Here a chunk
 * the socket does not take at once holds the next read until 'drain'; a client that goes away
 * cancels the body, so the stream's producer stops too. Otherwise the same as the adapter:
 * status, every header (repeated ones too), and headers flushed at once for an event stream.
 */
export async function sendWithBackpressure(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // The compression middleware's flush: a streamed page reaches the browser chunk by chunk.
  const flushable = res as ExpressResponse & { flush?: () => void };
  // One listener each for the whole response (the compression middleware forwards 'drain' to its
  // zlib stream and has no way to remove one), waking the read that waits, if any.
  let gone = false;
  let wake: (() => void) | undefined;
  const resume = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  res.on('drain', resume);
  res.on('close', () => {
    gone = true;
    resume();
  });
  try {
    for (;;) {
      if (gone || res.destroyed) {
        await reader.cancel().catch(() => undefined);
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        res.end();
        return;
      }
      const taken = res.write(value);
      flushable.flush?.();
      if (!taken && !gone) await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}
