import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/system';
import { builtEntry } from '../support/built';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../support/redis';

/**
 * `PROCESSES=web|worker`: the start (the Docker image's command) runs only the web processes or
 * only the worker on a node, so that web and worker containers can be scaled apart
 * (docker-compose.several-nodes.yml).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function startNode(processes: 'web' | 'worker') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `coursegen-${processes}-only-`));
  const prefix = `coursegen-processes-${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [builtEntry('start')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      DEMO_MODE: 'true',
      ADMIN_PASSWORD: 'admin-password-123',
      LOG_LEVEL: 'info',
      WEB_CONCURRENCY: '1',
      PROCESSES: processes,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => deleteRedisPrefix(prefix));
  cleanups.push(stop);
  return { child, port, output: () => output, stop };
}

async function waitFor(check: () => boolean, what: () => string) {
  const deadline = Date.now() + 90_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting:\n${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the start runs: the entry file of each of its child processes. */
function children(pid: number): string[] {
  const lines = execFileSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' });
  return lines
    .split('\n')
    .filter(Boolean)
    .map((line) => path.basename(line.trim().split(/\s+/)[1] ?? line));
}

describe('a node running only part of CourseGen (PROCESSES)', () => {
  it('PROCESSES=worker runs the worker and no web process', async () => {
    const node = await startNode('worker');
    // The start says so once the worker's own /healthz answers, a moment after "worker.ready".
    await waitFor(
      () =>
        node.output().includes("CourseGen's worker is running, no web process (PROCESSES=worker"),
      node.output,
    );
    expect(node.output()).toContain('"worker.ready"');
    expect(node.output()).toMatch(/Database: SQLite file .*coursegen\.sqlite/);
    expect(children(node.child.pid!)).toEqual(['worker.js']);
    // No web server: the worker answers its own health on PORT (ADR 0045), and nothing else.
    const health = await fetch(`http://127.0.0.1:${node.port}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', worker: 'ok', database: 'ok' });
    expect((await fetch(`http://127.0.0.1:${node.port}/`)).status).toBe(404);
    await node.stop();
    expect(node.child.exitCode).toBe(0);
  });

  it('PROCESSES=web runs the web processes and no worker', async () => {
    const node = await startNode('web');
    await waitFor(() => node.output().includes('CourseGen is running'), node.output);
    expect(node.output()).toContain('no worker (PROCESSES=web)');
    expect((await fetch(`http://127.0.0.1:${node.port}/healthz`)).status).toBe(200);
    expect(children(node.child.pid!)).toEqual(['web-process.js']);
    expect(node.output()).not.toContain('"worker.ready"');
    await node.stop();
    expect(node.child.exitCode).toBe(0);
  });
});
