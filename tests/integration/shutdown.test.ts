import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/system';
import { builtEntry } from '../support/built';
import { closeAppDatabases, createMember, sessionCookieValue } from '../support/members';
import { groupMembers, until } from '../support/processes';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../support/redis';

/**
 * Stopping `npm start` the ways it is asked to stop (systemd signals the whole process group,
 * a terminal sends SIGINT, a supervisor signals only the start or the npm process) stops web and worker
 * without orphans, within SHUTDOWN_TIMEOUT_MS, and loses no job.
 */
const SHUTDOWN_TIMEOUT_MS = 3_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-shutdown-'));
const prefix = `coursegen-shutdown-${randomBytes(4).toString('hex')}`;
const groups: number[] = [];
afterEach(() => {
  // A failed case must not leave its processes (and the data folder's pid file) behind.
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
afterAll(async () => {
  await closeAppDatabases();
  await deleteRedisPrefix(prefix);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Launcher = 'node' | 'npm';

async function startGroup(
  port: number,
  launcher: Launcher = 'node',
): Promise<{ child: ChildProcess; output: () => string }> {
  let log = '';
  const [command, args] =
    launcher === 'npm' ? ['npm', ['start']] : [process.execPath, [builtEntry('start')]];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      DEMO_MODE: 'true',
      LOG_LEVEL: 'info',
      // Lessons take 4 s each, longer than the shutdown limit: some are cut off mid-call.
      MOCK_AI_LATENCY_MS: '4000',
      LESSON_CONCURRENCY: '4',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      JOB_LOCK_MS: '2000',
      SWEEP_INTERVAL_MS: '1000',
      ADMIN_EMAIL: 'admin@shutdown.test',
      ADMIN_PASSWORD: 'admin-password-123',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, as under systemd
  });
  groups.push(child.pid!);
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!log.includes('CourseGen is running')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => log };
}

function lessonStates(courseId: string) {
  const db = new Database(path.join(dataDir, 'coursegen.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT state, media_state AS media FROM lessons WHERE course_id = ?')
      .all(courseId) as { state: string; media: string }[];
  } finally {
    db.close();
  }
}

describe('stopping npm start', () => {
  // [how it is asked, launched as, signal, sent to the group or to the launched process alone]
  it.each([
    ['SIGTERM to the whole process group (systemd)', 'node', 'SIGTERM', 'group'],
    ['SIGINT to the whole process group (Ctrl-C in a terminal)', 'node', 'SIGINT', 'group'],
    ['SIGTERM to the start process alone', 'node', 'SIGTERM', 'leader'],
    ['SIGTERM to the npm process of `npm start` alone', 'npm', 'SIGTERM', 'leader'],
  ] as const)(
    '%s stops every process in time and loses no job',
    async (_, launcher, signal, recipient) => {
      const port = await freePort();
      const { child } = await startGroup(port, launcher);
      const member = await createMember(dataDir);
      const cookie = `__session=${await sessionCookieValue(dataDir, member)}`;
      const headers = {
        Cookie: cookie,
        Origin: `http://127.0.0.1:${port}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      };
      const created = await fetch(`http://127.0.0.1:${port}/create`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({
          topic: 'Knots',
          subtopic: 'Bowline',
          topicCount: '5',
          type: 'text',
        }),
        redirect: 'manual',
      });
      const outlineId = created.headers.get('location')!.split('/topics/')[1]!;
      // The outline takes one slow call; then Generate Course.
      let courseId = '';
      await until(() => {
        const db = new Database(path.join(dataDir, 'coursegen.sqlite'), { readonly: true });
        const row = db.prepare('SELECT state FROM outlines WHERE id = ?').get(outlineId) as {
          state: string;
        };
        db.close();
        return row.state === 'done';
      }, 30_000);
      const generated = await fetch(`http://127.0.0.1:${port}/topics/${outlineId}`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({}),
        redirect: 'manual',
      });
      courseId = generated.headers.get('location')!.split('/course/')[1]!;
      await until(
        () => lessonStates(courseId).some((lesson) => lesson.state === 'running'),
        20_000,
      );

      const pgid = child.pid!;
      expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(3); // start, web, worker
      const stoppedAt = Date.now();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (recipient === 'group') process.kill(-pgid, signal);
      else child.kill(signal);
      await exited;
      await until(() => groupMembers(pgid).length === 0, 10_000);
      expect(Date.now() - stoppedAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 5_000);

      // Started again on the same data and Redis: every lesson ends done, none lost.
      const again = await startGroup(port);
      try {
        await until(
          () => lessonStates(courseId).every((l) => l.state === 'done' && l.media === 'done'),
          90_000,
        );
      } finally {
        const gone = new Promise((resolve) => again.child.once('exit', resolve));
        process.kill(-again.child.pid!, 'SIGTERM');
        await gone;
      }
    },
    240_000,
  );
});
