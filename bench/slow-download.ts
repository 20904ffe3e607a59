import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { writeReadableStreamToWritable } from '@remix-run/node';
import express from 'express';
import { sendWithBackpressure } from '../server/send-response';

/**
 * `npm run bench -- slow-download`: what a streamed download to a slow client costs the web
 * process's memory, with the server's writer (server/send-response.ts, waits for the socket) and
 * with Remix's express adapter's (writes every chunk at once), in alternating rounds. Each round
 * serves a 96 MB body made 64 KB at a time (as the data export is made, ADR 60) to a client that
 * reads 8 MB a second, and samples the bytes queued in the process (`res.writableLength`) and
 * its resident memory. Target: the queue stays under 16 MB with the server's writer, whatever the
 * body's size.
 */
const CHUNK = 64 * 1024;
const BODY = 96 * 1024 * 1024;
const CLIENT_BYTES_PER_SECOND = 8 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const QUEUE_TARGET = 16 * 1024 * 1024;

type Writer = (res: express.Response, response: Response) => Promise<void>;
const WRITERS: Record<string, Writer> = {
  'server (waits for the socket)': sendWithBackpressure,
  "Remix's adapter": (res, response) => writeReadableStreamToWritable(response.body!, res),
};

function body(): ReadableStream<Uint8Array> {
  let made = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve));
      if (made >= BODY) return controller.close();
      made += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(made & 0xff));
    },
  });
}

async function round(write: Writer): Promise<{ queuedMb: number; rssGrowthMb: number }> {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let queued = 0;
  let rssPeak = rssBefore;
  const app = express();
  app.get('/', (_req, res) => {
    const sample = setInterval(() => {
      queued = Math.max(queued, res.writableLength);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    res.on('close', () => clearInterval(sample));
    void write(res, new Response(body(), { headers: { 'Content-Type': 'application/zip' } }));
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n');
  // A slow client: takes what arrived, then waits as long as its bandwidth would need.
  let received = 0;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    socket.pause();
    setTimeout(() => socket.resume(), (chunk.length / CLIENT_BYTES_PER_SECOND) * 1000);
  });
  await new Promise((resolve) => socket.on('close', resolve));
  server.close();
  if (received < BODY) throw new Error(`the client received ${received} of ${BODY} bytes`);
  return { queuedMb: queued / 1024 / 1024, rssGrowthMb: (rssPeak - rssBefore) / 1024 / 1024 };
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const results = Object.fromEntries(
    Object.keys(WRITERS).map((name) => [name, [] as Awaited<ReturnType<typeof round>>[]]),
  );
  for (let i = 0; i < ROUNDS; i += 1)
    for (const [name, write] of Object.entries(WRITERS)) results[name]!.push(await round(write));
  console.log(
    `A ${BODY / 1024 / 1024} MB download to a client reading ${CLIENT_BYTES_PER_SECOND / 1024 / 1024} MB/s, median of ${ROUNDS} alternating rounds:`,
  );
  for (const [name, runs] of Object.entries(results))
    console.log(
      `  ${name}: most queued ${median(runs.map((r) => r.queuedMb)).toFixed(1)} MB, resident memory +${median(runs.map((r) => r.rssGrowthMb)).toFixed(0)} MB`,
    );
  const ours = median(results['server (waits for the socket)']!.map((r) => r.queuedMb));
  const target = QUEUE_TARGET / 1024 / 1024;
  console.log(
    `Target: under ${target} MB queued with the server's writer: ${ours < target ? 'met' : 'MISSED'}`,
  );
  if (ours >= target) process.exitCode = 1;
}

await main();
