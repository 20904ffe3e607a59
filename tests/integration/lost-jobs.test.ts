import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import { builtEntry } from '../support/built';
import { appDatabase, closeAppDatabases, type AppDatabase } from '../support/members';
import { memberClient, type MemberClient } from '../support/member-http';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { createTestDatabase } from '../support/postgres';
import { databaseDialect, first, tables } from '~/utils/database.server';

/**
 * The database (SQLite or PostgreSQL) owns the work; Redis only runs it. Against a Redis of the
 * test's own (so it can be taken away and brought back empty) and the real app (web + worker,
 * demo mode), no page is loaded while the work is owed: only the worker's sweep can bring it
 * back.
 */
const SETTINGS = { SWEEP_INTERVAL_MS: '1000', JOB_BACKOFF_BASE_MS: '100', JOB_LOCK_MS: '2000' };

let redis: OwnRedis;
const apps: RunningApp[] = [];
const folders: string[] = [];

beforeAll(async () => {
  redis = await startOwnRedis();
});
afterEach(async () => {
  await redis.start(); // a failed test may have left it stopped
  await closeAppDatabases();
  await Promise.all(apps.splice(0).map((app) => app.stop()));
});
afterAll(async () => {
  await redis?.stop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** The app on the test's Redis; `place` keeps the data folder and prefix across restarts. */
async function start(place?: { dataDir: string; prefix: string }, extraEnv = {}) {
  const env: Record<string, string> = { ...SETTINGS, REDIS_URL: redis.url, ...extraEnv };
  if (place) Object.assign(env, { DATA_DIR: place.dataDir, REDIS_PREFIX: place.prefix });
  const app = await startApp(env);
  apps.push(app);
  return { ...app, dataDir: place?.dataDir ?? app.dataDir };
}

async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const COURSE = { topic: 'Sailing', subtopic: 'Knots', topicCount: '5', type: 'text' };

// The running app's own database (tests/support/members.ts), queried through `tables`.
async function outlineState(app: AppDatabase, outlineId: string): Promise<string | undefined> {
  const { outlines } = tables;
  const row = await first(
    appDatabase(app)
      .select({ state: outlines.state })
      .from(outlines)
      .where(eq(outlines.id, outlineId)),
  );
  return row?.state;
}

/** Every lesson's theory and media, once all are done; undefined until then. */
async function finishedLessons(app: AppDatabase, courseId: string) {
  const { lessons } = tables;
  const rows = await appDatabase(app)
    .select({
      id: lessons.id,
      state: lessons.state,
      mediaState: lessons.mediaState,
      theory: lessons.theory,
    })
    .from(lessons)
    .where(eq(lessons.courseId, courseId));
  return rows.length > 0 && rows.every((row) => row.state === 'done' && row.mediaState === 'done')
    ? rows
    : undefined;
}

/** /create, then Generate Course, as a member's browser posts them; returns the course id. */
async function createCourse(client: MemberClient, app: AppDatabase) {
  const created = await client.post('/create', COURSE);
  const outlineId = created.location.split('/topics/')[1]!;
  await waitFor(async () => (await outlineState(app, outlineId)) === 'done');
  const generated = await client.post(`/topics/${outlineId}`, {});
  return generated.location.split('/course/')[1]!;
}

describe('work owed in the database is done whatever Redis loses', () => {
  it('finishes an outline and a course submitted while Redis is down, with no page load', async () => {
    const app = await start();
    const client = await memberClient(app);

    await redis.stop();
    const created = await client.post('/create', COURSE);
    expect(created.response.status).toBe(302);
    expect(created.ms).toBeLessThan(8_000);
    const outlineId = created.location.split('/topics/')[1]!;
    expect(await client.json(`/status/outline/${outlineId}`)).toMatchObject({
      state: 'queued',
      jobServiceDown: true,
    });
    await redis.start(); // empty: it never saw the job
    await waitFor(async () => (await outlineState(app, outlineId)) === 'done');

    await redis.stop();
    const generated = await client.post(`/topics/${outlineId}`, {});
    expect(generated.response.status).toBe(302);
    expect(generated.ms).toBeLessThan(8_000);
    const courseId = generated.location.split('/course/')[1]!;
    expect(await finishedLessons(app, courseId)).toBeUndefined();
    await redis.start();
    const lessons = await waitFor(() => finishedLessons(app, courseId));
    expect(lessons.length).toBeGreaterThan(0);
    for (const lesson of lessons) expect(lesson.theory).toBeTruthy();
  });

  it('ends with every lesson done when Redis restarts having lost everything mid-course', async () => {
    // Slow lessons, two at a time: most are still owed when Redis goes.
    const app = await start(undefined, { MOCK_AI_LATENCY_MS: '1000', LESSON_CONCURRENCY: '2' });
    const client = await memberClient(app);
    const courseId = await createCourse(client, app);
    expect(await finishedLessons(app, courseId)).toBeUndefined();

    await redis.stop();
    await redis.start();
    const lessons = await waitFor(() => finishedLessons(app, courseId));
    for (const lesson of lessons) expect(lesson.theory).toBeTruthy();
  });

  it(
    'generates new and old courses after the database is restored from a backup',
    { timeout: 180_000 },
    async () => {
      const place = {
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-restore-')),
        prefix: `coursegen-restore-${randomBytes(4).toString('hex')}`,
      };
      folders.push(place.dataDir);
      // On PostgreSQL the database is the test's, kept across the restart as the data folder is.
      const database =
        databaseDialect() === 'postgres' ? await createTestDatabase('restore') : undefined;
      const databaseEnv: Record<string, string> = database
        ? { DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('hex') }
        : {};
      try {
        const first = await start(place, databaseEnv);
        const client = await memberClient(first);
        const restore = await backUp(first, databaseEnv);
        // Work done after the backup: its jobs stay in Redis, finished, and are then "forgotten".
        const forgotten: number[] = [];
        for (let i = 0; i < 2; i += 1) {
          const courseId = await createCourse(client, first);
          const lessons = await waitFor(() => finishedLessons(first, courseId));
          forgotten.push(...lessons.map((lesson) => lesson.id));
        }
        await closeAppDatabases();
        await Promise.all(apps.splice(0).map((app) => app.stop()));

        restore();
        const restored = await start(place, databaseEnv);
        const again = await memberClient(restored);
        // Row ids after the restore repeat those of the forgotten courses.
        const repeated: number[] = [];
        for (let i = 0; i < 2; i += 1) {
          const courseId = await createCourse(again, restored);
          const lessons = await waitFor(() => finishedLessons(restored, courseId), 30_000);
          for (const lesson of lessons) expect(lesson.theory).toBeTruthy();
          repeated.push(
            ...lessons.map((lesson) => lesson.id).filter((id) => forgotten.includes(id)),
          );
        }
        expect(repeated.length).toBeGreaterThan(0);
      } finally {
        await closeAppDatabases();
        await Promise.all(apps.splice(0).map((app) => app.stop()));
        await database?.drop();
      }
    },
  );
});

/**
 * Backs up a running app's database; returns what puts the backup back once the app has stopped.
 * SQLite: a copy of the file (SQLite's online backup); PostgreSQL: `npm run backup` and
 * `npm run restore FILE` (pg_dump and pg_restore), as an operator would.
 */
async function backUp(app: AppDatabase, databaseEnv: Record<string, string>) {
  if (!app.databaseUrl) {
    const dbFile = path.join(app.dataDir, 'coursegen.sqlite');
    const backup = path.join(app.dataDir, 'backup.db');
    const live = new Database(dbFile);
    await live.backup(backup);
    live.close();
    return () => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbFile + suffix, { force: true });
      fs.copyFileSync(backup, dbFile);
    };
  }
  const run = (entry: 'backup' | 'restore', args: string[] = []) => {
    const result = spawnSync(process.execPath, [builtEntry(entry), ...args], {
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: app.dataDir, ...databaseEnv },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const backup = run('backup').trim().split('\n').at(-1)!;
  return () => void run('restore', [backup]);
}
