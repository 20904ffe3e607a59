import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { writeReadableStreamToWritable } from '@remix-run/node';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWithBackpressure } from './send-response';

const CHUNK = 64 * 1024;
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** The most a test body makes: far more than any socket holds. */
const MOST = 64 * 1024 * 1024;

/**
 * A long download made a chunk at a time, each after a turn of the event loop (as a database read
 * would), counting what was made and noting when it was cancelled.
 */
function endlessBody() {
  const made = { bytes: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve));
      if (made.bytes >= MOST) return controller.close();
      made.bytes += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK));
    },
    cancel() {
      made.cancelled = true;
    },
  });
  return { made, body };
}

/** A server answering every request with `body` through `send`. */
async function serve(
  send: (res: express.Response, response: Response) => Promise<void>,
  body: ReadableStream<Uint8Array>,
) {
  const app = express();
  app.get('/', (_req, res) => {
    void send(
      res,
      new Response(body, { headers: { 'Content-Type': 'application/zip', 'X-Twice': 'a' } }),
    ).catch(() => undefined);
  });
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A client that asks, then reads nothing for `ms`: a very slow connection. */
async function stalledClient(port: number, ms: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.pause();
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, ms));
  return socket;
}

const REMIX_ADAPTER = (res: express.Response, response: Response) =>
  writeReadableStreamToWritable(response.body!, res);

describe('sending a streamed response', () => {
  it('reads the body no faster than a stalled client takes it, where the adapter reads it all', async () => {
    const ours = endlessBody();
    const socket = await stalledClient(await serve(sendWithBackpressure, ours.body), 1_000);
    // The socket's buffers and one chunk: a few megabytes at most, however long the client waits.
    expect(ours.made.bytes).toBeLessThan(16 * 1024 * 1024);
    socket.destroy();

    const adapters = endlessBody();
    const other = await stalledClient(await serve(REMIX_ADAPTER, adapters.body), 1_000);
    // Remix's own writer, to a client as stalled: all of it made, and held in memory.
    await expect.poll(() => adapters.made.bytes, { timeout: 10_000 }).toBe(MOST);
    other.destroy();
  });

  it('cancels the body when the client goes away, so its producer stops', async () => {
    const { made, body } = endlessBody();
    const socket = await stalledClient(await serve(sendWithBackpressure, body), 200);
    socket.destroy();
    await expect.poll(() => made.cancelled, { timeout: 5_000 }).toBe(true);
    const stopped = made.bytes;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(made.bytes).toBe(stopped);
  });

  it('sends the status, every header and the whole body to a client that reads', async () => {
    const text = 'x'.repeat(3 * CHUNK + 5);
    const app = express();
    app.get('/', (_req, res) => {
      const headers = new Headers({ 'Content-Type': 'text/plain' });
      headers.append('Set-Cookie', 'a=1');
      headers.append('Set-Cookie', 'b=2');
      void sendWithBackpressure(
        res,
        new Response(text, { status: 201, statusText: 'Made', headers }),
      );
    });
    app.get(
      '/empty',
      (_req, res) => void sendWithBackpressure(res, new Response(null, { status: 204 })),
    );
    const server = http.createServer(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answer = await fetch(base);
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Made');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await answer.text()).toBe(text);
    expect((await fetch(`${base}/empty`)).status).toBe(204);
  });
});
