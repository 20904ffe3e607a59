import type { ChildProcess } from 'node:child_process';
import type { AppLoadContext } from '@remix-run/node';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../db/connection';
import { insertCourse, THIS_PROCESS } from '../support/courses';
import { otherWriter as startOtherWriter, postgresOtherWriter } from '../support/other-writer';
import { createUser } from '~/models/users.server';
import * as finishApi from '~/routes/api/api.finish';
import { createSession } from '~/utils/auth.server';
import { closeDatabase } from '~/utils/database.server';
import { env, resetEnvForTests } from '~/utils/env.server';

/**
 * Another process (the worker) writes to the same SQLite file all the time. A request whose
 * transaction read first and wrote later used to fail with 'database is locked' (a 500) when
 * the other process committed in between; a database locked past its busy timeout is a 503.
 */
/** A load context per request, as the server makes one (it keeps the request's session read). */
const newContext = () => ({ clientIp: '203.0.113.9' }) as AppLoadContext;
const children: ChildProcess[] = [];
const connections: Promise<void>[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.allSettled(connections.splice(0));
});

function otherWriter(mode: 'churn' | 'hold', ms: number): Promise<void> {
  const writer = startOtherWriter(databaseFile(env().DATA_DIR), mode, ms);
  children.push(writer.child);
  return writer.ready;
}

async function finishedCourses(count: number) {
  const user = await createUser({
    email: `busy-${Date.now()}-${Math.random()}@example.com`,
    name: 'Busy Member',
    password: 'a-long-password',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1)
    ids.push(
      await insertCourse(THIS_PROCESS, user.id, {
        mainTopic: `Course ${i}`,
        lessons: 2,
        allDone: true,
      }),
    );
  const finish = (courseId: string) =>
    finishApi.action({
      request: new Request('http://localhost/api/finish', {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/json' },
        body: JSON.stringify({ courseId }),
      }),
      params: {},
      context: newContext(),
    }) as Promise<Response>;
  return { ids, finish };
}

/** Finishes 30 courses one after the other once `startWriter` runs: every one answers 200. */
async function expectFinishesBesideWriter(startWriter: () => Promise<void>) {
  const { ids, finish } = await finishedCourses(30);
  await startWriter();
  const statuses: number[] = [];
  for (const courseId of ids) {
    statuses.push((await finish(courseId)).status);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(statuses).toEqual(ids.map(() => 200));
}

async function expectBusyAnswer(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get('Retry-After')).toBe('1');
  expect(await response.json()).toMatchObject({
    success: false,
    message: 'The server is busy. Please try again in a moment.',
  });
}

// SQLite's write lock between processes: PostgreSQL (DATABASE_URL) has no such lock to test.
const onSqlite = env().DATABASE_URL === undefined;

describe.runIf(onSqlite)('a database another process is writing to', () => {
  it('finishes courses while another process commits all the time, never answering 500', () =>
    expectFinishesBesideWriter(() => otherWriter('churn', 4_000)));

  it('answers 503 with Retry-After when the lock outlasts the busy timeout', async () => {
    const { ids, finish } = await finishedCourses(1);
    await otherWriter('hold', 7_000);
    await expectBusyAnswer(await finish(ids[0]!));
  });
});

/**
 * The same on PostgreSQL: another connection commits all the time, or holds a lock on the table
 * a finish reads. Past the lock_timeout (the app's 2 s, or the operator's in DATABASE_URL's
 * options, ADR 0046) the wait fails (lock_not_available) and the app answers as SQLite's busy
 * timeout does.
 */
describe.runIf(!onSqlite)('a PostgreSQL database another connection is writing to', () => {
  function postgresWriter(mode: 'churn' | 'hold', ms: number): Promise<void> {
    const writer = postgresOtherWriter(env().DATABASE_URL!, mode, ms);
    connections.push(writer.done);
    return writer.ready;
  }

  /** Runs `body` with the process's database reopened with a lock_timeout of `ms`. */
  async function withLockTimeout(ms: number, body: () => Promise<void>) {
    const url = process.env.DATABASE_URL!;
    const limited = new URL(url);
    limited.searchParams.set('options', `-c lock_timeout=${ms}`);
    const reopen = async (next: string) => {
      process.env.DATABASE_URL = next;
      resetEnvForTests();
      await closeDatabase();
    };
    await reopen(limited.toString());
    try {
      await body();
    } finally {
      await reopen(url);
    }
  }

  it('finishes courses while another connection commits all the time, never answering 500', () =>
    expectFinishesBesideWriter(() => postgresWriter('churn', 4_000)));

  it('answers 503 with Retry-After when a lock outlasts the lock timeout', async () => {
    const { ids, finish } = await finishedCourses(1);
    await withLockTimeout(1_000, async () => {
      await postgresWriter('hold', 4_000);
      await expectBusyAnswer(await finish(ids[0]!));
    });
  });
});
