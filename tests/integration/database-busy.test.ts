import { spawn, type ChildProcess } from 'node:child_process';
import type { AppLoadContext } from '@remix-run/node';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../db/connection';
import { insertCourse } from '../support/courses';
import { createUser } from '~/models/users.server';
import * as finishApi from '~/routes/api/api.finish';
import { createSession } from '~/utils/auth.server';
import { env } from '~/utils/env.server';

/**
 * Another process (the worker) writes to the same SQLite file all the time. A request whose
 * transaction read first and wrote later used to fail with 'database is locked' (a 500) when
 * the other process committed in between; a database locked past its busy timeout is a 503.
 */
const context = { clientIp: '203.0.113.9' } as AppLoadContext;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A second process on the same file: `churn` commits tiny writes in a loop, `hold` keeps the write lock. */
function otherWriter(mode: 'churn' | 'hold', ms: number): Promise<void> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(databaseFile(env().DATA_DIR))});
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE IF NOT EXISTS churn (n INTEGER)');
    const end = Date.now() + ${ms};
    if (${JSON.stringify(mode)} === 'hold') {
      db.exec('BEGIN IMMEDIATE');
      process.stdout.write('locked\\n');
      while (Date.now() < end) {}
      db.exec('COMMIT');
    } else {
      const write = db.prepare('INSERT INTO churn (n) VALUES (?)');
      process.stdout.write('locked\\n');
      while (Date.now() < end) write.run(Date.now());
    }`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve) => child.stdout!.once('data', () => resolve()));
}

async function finishedCourses(count: number) {
  const user = await createUser({
    email: `busy-${Date.now()}-${Math.random()}@example.com`,
    name: 'Busy Member',
    password: 'a-long-password',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  const ids = Array.from({ length: count }, (_, i) =>
    insertCourse(env().DATA_DIR, user.id, { mainTopic: `Course ${i}`, lessons: 2, allDone: true }),
  );
  const finish = (courseId: string) =>
    finishApi.action({
      request: new Request('http://localhost/api/finish', {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/json' },
        body: JSON.stringify({ courseId }),
      }),
      params: {},
      context,
    }) as Promise<Response>;
  return { ids, finish };
}

describe('a database another process is writing to', () => {
  it('finishes courses while another process commits all the time, never answering 500', async () => {
    const { ids, finish } = await finishedCourses(30);
    await otherWriter('churn', 4_000);
    const statuses: number[] = [];
    for (const courseId of ids) {
      statuses.push((await finish(courseId)).status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statuses).toEqual(ids.map(() => 200));
  });

  it('answers 503 with Retry-After when the lock outlasts the busy timeout', async () => {
    const { ids, finish } = await finishedCourses(1);
    await otherWriter('hold', 7_000);
    const response = await finish(ids[0]!);
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('1');
    expect(await response.json()).toEqual({
      success: false,
      message: 'The server is busy. Please try again in a moment.',
    });
  });
});
