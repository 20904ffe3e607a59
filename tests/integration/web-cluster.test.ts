import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { env, readDataFiles } from '~/utils/env.server';
import { freePort } from '../../scripts/lib/system';
import { builtEntry } from '../support/built';
import { closeAppDatabases, createMember, sessionCookieValue } from '../support/members';
import { childPids, until } from '../support/processes';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../support/redis';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/**
 * The web tier on several processes (ADR 0016): every web process of an install serves every
 * member from the shared SQLite file and Redis, so losing one loses no work and the others keep
 * serving; and `npm start` runs WEB_CONCURRENCY web processes on one port, restarting one that dies.
 */
interface Launched {
  child: ChildProcess;
  base: string;
  output: () => string;
}
const groups: ChildProcess[] = [];
const workers: WorkerProcess[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => stopWorker(worker, 'SIGKILL')));
  // A failed case must not leave its processes behind: each was started in its own group.
  for (const child of groups.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
afterAll(() => closeAppDatabases());

/** Starts `script` in its own process group and waits until its port answers /healthz. */
async function launch(
  script: 'start' | 'web-process',
  extraEnv: Record<string, string>,
): Promise<Launched> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [builtEntry(script)], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      REDIS_URL: TEST_REDIS_URL,
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(child);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const launched = { child, base: `http://127.0.0.1:${port}`, output: () => output };
  for (const deadline = Date.now() + 90_000; ;) {
    if (child.exitCode !== null) throw new Error(`${script} exited:\n${output}`);
    if ((await healthz(launched.base).catch(() => null))?.status === 200) return launched;
    if (Date.now() > deadline) throw new Error(`${script} did not start:\n${output}`);
    await sleep(200);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /healthz on a connection of its own, as a new visitor arrives: which process answered. */
function healthz(base: string): Promise<{ status: number; pid: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/healthz`, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode!, pid: (JSON.parse(body) as { pid: number }).pid });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    request.on('error', reject);
    request.setTimeout(5_000, () => request.destroy(new Error('no answer in 5 s')));
  });
}

describe('several web processes', () => {
  it('a course started through one web process completes while another, the only one left, shows its progress', async () => {
    // Lessons take a while, so the first web process is gone mid-course.
    const slow = { MOCK_AI_LATENCY_MS: '1500', LESSON_CONCURRENCY: '2', JOB_LOCK_MS: '3000' };
    workers.push(spawnWorker(slow), spawnWorker(slow));
    await Promise.all(workers.map((worker) => worker.ready));
    // The start makes the data folder's session secret before its web processes (readDataFiles);
    // started here without it, the processes make it at their first session instead.
    readDataFiles(env());
    const [first, second] = await Promise.all([
      launch('web-process', {}),
      launch('web-process', {}),
    ]);

    const member = await createMember(env().DATA_DIR);
    const cookie = `__session=${await sessionCookieValue(env().DATA_DIR, member)}`;
    const form = (base: string) => ({
      Cookie: cookie,
      Origin: base,
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    const created = await fetch(`${first.base}/create`, {
      method: 'POST',
      headers: form(first.base),
      body: new URLSearchParams({
        topic: 'Knots',
        subtopic: 'Bowline',
        topicCount: '5',
        type: 'text',
      }),
      redirect: 'manual',
    });
    expect(created.status).toBe(302);
    const outlineId = created.headers.get('location')!.split('/topics/')[1]!;
    const readJson = async (url: string) => {
      const response = await fetch(url, { headers: { Cookie: cookie } });
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    await until(async () => {
      const outline = await readJson(`${second.base}/status/outline/${outlineId}`);
      return outline.state === 'done' || undefined;
    }, 60_000);

    const generated = await fetch(`${first.base}/topics/${outlineId}`, {
      method: 'POST',
      headers: form(first.base),
      body: new URLSearchParams({}),
      redirect: 'manual',
    });
    expect(generated.status).toBe(302);
    const courseId = generated.headers.get('location')!.split('/course/')[1]!;
    type Status = { ready: number; total: number; generating: boolean; version: string };
    const statusOf = async (query = '') =>
      (await readJson(`${second.base}/status/course/${courseId}${query}`)) as unknown as Status;
    const midway = await until(async () => {
      const status = await statusOf();
      return status.ready >= 1 ? status : undefined;
    }, 60_000);
    expect(midway.ready).toBeLessThan(midway.total);

    // The first web process dies without a chance to tidy up.
    process.kill(-first.child.pid!, 'SIGKILL');
    await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 5_000);
    await expect(healthz(first.base)).rejects.toThrow();

    // The second one keeps answering, waiting for changes as the course page does.
    let status = await statusOf();
    while (status.generating) {
      status = await statusOf(`?known=${status.version}&wait=10000`);
    }
    expect(status.ready).toBe(status.total);
    expect(status.total).toBeGreaterThanOrEqual(5);
    const page = await fetch(`${second.base}/course/${courseId}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Knots');
    expect((await healthz(second.base)).status).toBe(200);
  }, 180_000);

  it('npm start with WEB_CONCURRENCY=2 serves one port from two processes and restarts one that dies', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-cluster-'));
    const prefix = `coursegen-cluster-${randomBytes(4).toString('hex')}`;
    try {
      const app = await launch('start', {
        WEB_CONCURRENCY: '2',
        DATA_DIR: dataDir,
        REDIS_PREFIX: prefix,
        DEMO_MODE: 'true',
        ADMIN_EMAIL: 'admin@cluster.test',
        ADMIN_PASSWORD: 'admin-password-123',
      });
      await until(() => app.output().includes('CourseGen is running'), 30_000);
      // The start is the cluster's primary: the web processes are its children.
      const primary = app.child.pid!;
      const webs = await until(() => {
        const pids = childPids(primary, 'build/bin/web-process.js');
        return pids.length === 2 ? pids : undefined;
      }, 10_000);

      // New connections are shared out among the web processes; the primary serves none.
      const answeredBy = new Set<number>();
      await until(async () => {
        answeredBy.add((await healthz(app.base)).pid);
        return answeredBy.size === 2 || undefined;
      }, 10_000);
      expect([...answeredBy].sort()).toEqual([...webs].sort());

      const [killed, survivor] = webs as [number, number];
      process.kill(killed, 'SIGKILL');
      const replaced = Date.now();
      // Once the primary has seen it die (a connection handed over in that instant is lost with
      // the process), the port keeps answering while it is replaced.
      await until(() => app.output().includes('"process.died"'), 5_000);
      for (let request = 0; request < 10; request += 1) {
        const answer = await healthz(app.base);
        expect(answer.status).toBe(200);
        expect(answer.pid).not.toBe(killed);
      }
      const replacement = await until(() => {
        const pids = childPids(primary, 'build/bin/web-process.js');
        return pids.length === 2 && !pids.includes(killed)
          ? pids.find((pid) => pid !== survivor)
          : undefined;
      }, 5_000);
      expect(Date.now() - replaced).toBeLessThan(5_000);
      // Serving again takes as long as any start (seconds, longer on a busy machine).
      await until(async () => (await healthz(app.base)).pid === replacement || undefined, 60_000);
      expect(app.output()).toMatch(
        /"process.died","process":"web".*"signal":"SIGKILL","restartInMs":250/,
      );

      const exited = new Promise((resolve) => app.child.once('exit', resolve));
      process.kill(-app.child.pid!, 'SIGTERM');
      await exited;
      await until(() => childPids(primary, 'build/bin/web-process.js').length === 0, 10_000);
    } finally {
      await deleteRedisPrefix(prefix);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
