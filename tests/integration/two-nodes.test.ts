import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { childPids, until } from '../support/processes';
import { deleteRedisPrefix } from '../support/redis';

/**
 * Two nodes, as `docker-compose.several-nodes.yml` runs them: each its own start (web + worker)
 * and its own DATA_DIR, sharing only one PostgreSQL database and one Redis (issue 27). A member
 * signed in on one is signed in on the other; a payment taken on B shows on A; a node killed
 * mid-course leaves its lessons to the other, each written once.
 */
const SESSION_SECRET = 'one-secret-for-every-node-0123456789abcdef';
const prefix = `coursegen-nodes-${randomBytes(4).toString('hex')}`;
let database: TestDatabase;
let nodeA: RunningApp;
let nodeB: RunningApp;

beforeAll(async () => {
  database = await createTestDatabase('two_nodes');
  const shared = {
    DATABASE_URL: database.url,
    SESSION_SECRET,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'info',
    // Slow lessons, two at a time per worker: a course is still being written when A goes.
    MOCK_AI_LATENCY_MS: '1500',
    LESSON_CONCURRENCY: '2',
    JOB_LOCK_MS: '2000',
    JOB_BACKOFF_BASE_MS: '100',
    SWEEP_INTERVAL_MS: '1000',
  };
  // Started together: one prepares (migrations, seed) while the other waits for the lock.
  [nodeA, nodeB] = await Promise.all([startApp(shared), startApp(shared)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
  await deleteRedisPrefix(prefix);
  await database?.drop();
});

async function query<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** A member who signs up through `node`'s API; the session cookie works on every node. */
async function signUpOn(node: RunningApp) {
  const email = `node-member-${randomBytes(4).toString('hex')}@example.com`;
  const response = await fetch(`${node.baseURL}/api/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: node.baseURL },
    body: JSON.stringify({ email, mName: 'Node Member', password: 'correct-horse-battery' }),
  });
  expect(response.status).toBe(200);
  const { userId } = (await response.json()) as { userId: string };
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='));
  expect(session).toBeDefined();
  return { id: userId, email, cookie: session!.split(';')[0]! };
}

function client(node: RunningApp, cookie: string) {
  const headers = { Cookie: cookie, Origin: node.baseURL };
  return {
    get: (route: string) => fetch(`${node.baseURL}${route}`, { headers, redirect: 'manual' }),
    post: async (route: string, form: Record<string, string>) => {
      const response = await fetch(`${node.baseURL}${route}`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
      return { response, location: response.headers.get('location') ?? '' };
    },
  };
}

const storedLessons = (output: string) =>
  [...output.matchAll(/"event":"lesson\.stored"[^\n]*?"lessonId":"?(\d+)/g)].map(([, id]) =>
    Number(id),
  );

describe('two nodes on one PostgreSQL database and one Redis', () => {
  it('serve the same data: the session, the pages, the health of each', async () => {
    for (const node of [nodeA, nodeB]) {
      expect(node.output()).toContain(
        `Database: PostgreSQL at ${database.url} (up to 10 connections per process)`,
      );
      const health = await fetch(`${node.baseURL}/healthz`);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok', redis: 'ok' });
    }
    // One of the two prepared the database and made the admin; the other found it done.
    const announced = [nodeA, nodeB].filter((node) => node.output().includes('Main admin'));
    expect(announced.length).toBeLessThanOrEqual(1);
    expect(await query("SELECT email FROM users WHERE role = 'main_admin'")).toHaveLength(1);

    const { cookie } = await signUpOn(nodeB);
    for (const node of [nodeA, nodeB]) {
      const home = await client(node, cookie).get('/home');
      expect(home.status).toBe(200);
    }
  });

  it('a payment taken on B changes the plan A serves', async () => {
    const { id, email, cookie } = await signUpOn(nodeA);
    const onA = client(nodeA, cookie);
    const checkout = await onA.post('/payment?plan=monthly', {
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
      address: '1 Harvard Yard',
      postalCode: '02138',
      country: 'US',
      provider: 'razorpay',
    });
    expect(checkout.response.status).toBe(302);
    const subscriptionId =
      new URL(checkout.location, nodeA.baseURL).searchParams.get('subscription_id') ??
      /sub_\w+/.exec(checkout.location)?.[0];
    expect(subscriptionId).toMatch(/^sub_/);

    // Paid on B's demo payment page: Razorpay's signed webhook goes to B, which verifies it,
    // fetches the subscription from the provider and changes the plan.
    const paid = await client(nodeB, cookie).post(`/demo/razorpay/pay/${subscriptionId}`, {});
    expect(paid.response.status).toBeLessThan(400);
    await until(
      async () =>
        (await query<{ plan: string }>('SELECT plan FROM users WHERE id = $1', [id]))[0]?.plan ===
        'monthly',
      60_000,
      250,
    );
    const onAAfter = await fetch(`${nodeA.baseURL}/api/subscriptiondetail`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: nodeA.baseURL },
    });
    expect(onAAfter.status).toBe(200);
    expect(await onAAfter.json()).toMatchObject({
      success: true,
      method: 'razorpay',
      status: 'active',
    });
  });

  it('a member signs up and generates a course on A; A is killed mid-course; B finishes every lesson, each written once, and the member studies it on B', async () => {
    const { cookie } = await signUpOn(nodeA);
    const onA = client(nodeA, cookie);
    const created = await onA.post('/create', {
      topic: 'Sailing',
      subtopic: 'Knots',
      topicCount: '5',
      type: 'text',
    });
    expect(created.response.status).toBe(302);
    const outlineId = created.location.split('/topics/')[1]!;
    await until(
      async () =>
        (await query<{ state: string }>('SELECT state FROM outlines WHERE id = $1', [outlineId]))[0]
          ?.state === 'done',
      60_000,
      200,
    );
    const generated = await onA.post(`/topics/${outlineId}`, {});
    const courseId = generated.location.split('/course/')[1]!;
    expect(courseId).toBeTruthy();
    const lessonsOf = () =>
      query<{ id: number; state: string; theory: string | null; title: string }>(
        'SELECT id, state, theory, title FROM lessons WHERE course_id = $1',
        [courseId],
      );

    // A's worker is writing lessons when the whole node dies (no hand-back, no goodbye). Each
    // worker writes two at a time, so with three running both are at work.
    await until(
      async () => (await lessonsOf()).filter((lesson) => lesson.state === 'running').length >= 3,
      60_000,
      50,
    );
    const children = childPids(nodeA.pid, '');
    process.kill(nodeA.pid, 'SIGKILL');
    for (const pid of children) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    expect((await lessonsOf()).some((lesson) => lesson.state !== 'done')).toBe(true);

    const lessons = await until(
      async () => {
        const rows = await lessonsOf();
        return rows.length > 0 && rows.every((lesson) => lesson.state === 'done')
          ? rows
          : undefined;
      },
      120_000,
      250,
    );
    // The member studies it on B: the course page, and a lesson opened counts as done.
    const onB = client(nodeB, cookie);
    const page = await onB.get(`/course/${courseId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(lessons[0]!.title);
    const studied = lessons.at(-1)!;
    const opened = await onB.post(`/course/${courseId}`, {
      intent: 'open',
      lessonId: String(studied.id),
    });
    expect(opened.response.status).toBe(302);
    expect(
      (await query<{ done: boolean }>('SELECT done FROM lessons WHERE id = $1', [studied.id]))[0],
    ).toEqual({ done: true });
    // Every lesson stored once over both nodes (A's log ends where it died).
    await until(
      () =>
        storedLessons(nodeA.output() + nodeB.output()).filter((id) =>
          lessons.some((lesson) => lesson.id === id),
        ).length >= lessons.length,
      10_000,
    ).catch(() => undefined);
    const stored = storedLessons(nodeA.output() + '\n' + nodeB.output());
    for (const lesson of lessons) {
      expect(lesson.theory).toBeTruthy();
      expect(stored.filter((id) => id === lesson.id)).toHaveLength(1);
    }
  });
});
