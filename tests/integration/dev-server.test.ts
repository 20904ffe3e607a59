import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/system';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../support/redis';

/**
 * `npm run dev` runs the production web server (server/app.ts) with Vite in front of the app
 * (ADR 0028), so every rule of the server holds while developing: the security headers with a
 * per-request nonce, the cross-site check, body limits, malformed requests refused.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-dev-'));
const prefix = `coursegen-dev-${randomBytes(4).toString('hex')}`;
let child: ChildProcess;
let base = '';
let port = 0;
let output = '';

beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn('npm', ['run', '--silent', 'dev'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      APP_URL: base,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      DEMO_MODE: 'true',
      ADMIN_EMAIL: 'admin@dev.test',
      ADMIN_PASSWORD: 'admin-password-123',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (const deadline = Date.now() + 150_000; !output.includes('CourseGen is running');) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`no dev start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 180_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  await deleteRedisPrefix(prefix);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('serves pages through Vite with the security headers and a fresh nonce each time', async () => {
    const [first, second] = await Promise.all([fetch(`${base}/`), fetch(`${base}/`)]);
    expect(first.status).toBe(200);
    const nonce = (response: Response) =>
      /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce(first)).toBeTruthy();
    expect(nonce(first)).not.toBe(nonce(second));
    expect(first.headers.get('x-frame-options')).toBe('DENY');
    // Stylesheets straight from the sources, as Vite serves them: this is the development server.
    expect(await first.text()).toContain('href="/app/styles/app.css"');
  });

  it('refuses cross-site posts, bodies over the limit and malformed requests', async () => {
    const crossSite = await fetch(`${base}/api/contact`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    const tooLarge = await fetch(`${base}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(tooLarge.status).toBe(413);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.end('GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });
});
