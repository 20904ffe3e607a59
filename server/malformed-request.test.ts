import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { malformedRequest } from './malformed-request';

/** A raw request, so that any Host, method or path goes out exactly as written. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

let server: http.Server;
let port = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const refusal = malformedRequest(req);
    res.statusCode = refusal?.status ?? 200;
    if (refusal?.allow) res.setHeader('Allow', refusal.allow);
    res.end(refusal ? refusal.message : 'ok');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

const get = (path: string, host: string, extra = '') =>
  raw(port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);

describe('malformedRequest', () => {
  it.each(['[', 'a b', '%', 'example.com:99999', 'user@evil.example', 'example.com/path'])(
    'refuses Host: %s with 400',
    async (host) => {
      expect(await get('/', host)).toMatch(/^HTTP\/1\.1 400 .*malformed Host header/s);
    },
  );

  it('refuses a malformed X-Forwarded-Host (Remix reads its port even from an untrusted proxy)', async () => {
    expect(await get('/', 'localhost', 'X-Forwarded-Host: example.com:99999\r\n')).toMatch(
      /^HTTP\/1\.1 400 /,
    );
  });

  // (Node itself refuses TRACK, and hands CONNECT to a listener of its own, never to requests.)
  it('answers TRACE with 405 and Allow', async () => {
    const answer = await raw(
      port,
      `TRACE / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toMatch(/Allow: GET, HEAD, POST, OPTIONS/);
  });

  it('refuses a path whose %-escapes do not decode, query strings aside', async () => {
    expect(await get('/receipts/%ED%A0%80.pdf', 'localhost')).toMatch(
      /^HTTP\/1\.1 400 .*malformed path/s,
    );
    expect(await get('/%', 'localhost')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await get('/search?q=%', 'localhost')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it.each(['localhost', 'localhost:3000', '127.0.0.1:80', '[::1]:3000', 'Courses.Example.com'])(
    'lets Host: %s through',
    async (host) => {
      expect(await get('/caf%C3%A9', host)).toMatch(/^HTTP\/1\.1 200 /);
    },
  );
});
