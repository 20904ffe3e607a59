import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { writeKnobs } from '../../mocks/knobs';
import { DEFAULT_PLAN_SETTINGS } from '~/domain/plans';
import { writeSetting } from '~/models/settings.server';
import { forgetPlans, PLANS_KEY } from '~/services/plans.server';
import { database, tables } from '~/utils/database.server';
import * as statusLesson from '~/routes/member/status.lesson.$lessonId';
import * as tutorRoute from '~/routes/member/tutor.$lessonId';
import {
  EMPTY_QUESTION_MESSAGE,
  MAX_QUESTION_LENGTH,
  QUESTION_TOO_LONG_MESSAGE,
  TUTOR_ALLOWANCE_MESSAGE,
  TUTOR_FAILED_MESSAGE,
  tutorDailyCapMessage,
} from '~/domain/tutor';
import { createCourseWithLessons } from '~/models/courses.server';
import { MAX_STREAMS_PER_MEMBER, TOO_MANY_STREAMS_MESSAGE } from '~/services/lesson-stream.server';
import { getLesson } from '~/models/lessons.server';
import { createUser, type User } from '~/models/users.server';
import { enqueueLessons } from '~/queues/lesson.server';
import { createSession } from '~/utils/auth.server';
import { env, resetEnvForTests } from '~/utils/env.server';
import { markdownToSafeHtml } from '~/utils/markdown.server';
import { startVendorMocks } from '~/utils/mocks.server';
import { readEvents } from '~/browser/read-events';
import { producerRedis } from '~/utils/redis.server';
import { followDraft, startDraft, type DraftEvent } from '~/utils/drafts.server';
import { freePort } from '../../scripts/lib/system';
import { builtEntry } from '../support/built';
import { TEST_REDIS_URL } from '../support/redis';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/**
 * Streamed lessons and the tutor, through their routes as a browser calls them. Lessons are
 * written by real worker processes; the stream reaches this process through Redis, as it reaches
 * any web process. The AI is the Anthropic mock (demo mode), paced by its knobs.
 */
type Route = { loader?: unknown; action?: unknown };
type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: { clientIp: string };
}) => Promise<Response>;

async function call(
  route: Route,
  options: {
    path: string;
    cookie?: string;
    params: Record<string, string>;
    body?: unknown;
    signal?: AbortSignal;
  },
): Promise<Response> {
  const method = options.body === undefined ? 'GET' : 'POST';
  const headers: Record<string, string> = {};
  if (options.cookie) headers.Cookie = options.cookie;
  if (method === 'POST') headers['Content-Type'] = 'application/json';
  const request = new Request(`http://localhost${options.path}`, {
    method,
    headers,
    body: method === 'POST' ? JSON.stringify(options.body) : undefined,
    signal: options.signal,
  });
  const handler = (method === 'GET' ? route.loader : route.action) as Handler;
  try {
    return await handler({ request, params: options.params, context: { clientIp: '1.2.3.4' } });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

let counter = 0;
async function member(plan: User['plan'] = 'free') {
  counter += 1;
  const user = await createUser({
    email: `stream-${counter}@example.com`,
    name: `Member ${counter}`,
    password: 'long-enough-password',
    plan,
  });
  return { user, cookie: (await createSession(user.id)).split(';')[0]! };
}

const WRITTEN = '<h2>Understanding Chlorophyll</h2><p>Chlorophyll absorbs light.</p>';

/** A course of one written lesson and one still to write (no job yet). */
async function course(userId: string) {
  const { course, lessons } = await createCourseWithLessons({
    userId,
    mainTopic: 'Photosynthesis',
    type: 'text',
    topics: [
      {
        title: 'Pigments',
        lessons: [
          { title: 'Chlorophyll', theory: WRITTEN },
          { title: 'Light Reactions in Plants' },
        ],
      },
    ],
  });
  return { courseId: course.id, written: lessons[0]!.id, pending: lessons[1]!.id };
}

interface Followed {
  text: string;
  /** Every event in order, with the text length after it. */
  events: { type: string; length: number }[];
  ended: Promise<void>;
  stop: () => void;
}

/** Keeps the text a lesson's event stream shows, as the page does. */
function keepText(response: Response, controller: AbortController): Followed {
  const followed: Followed = {
    text: '',
    events: [],
    ended: Promise.resolve(),
    stop: () => controller.abort(),
  };
  followed.ended = readEvents(response, (type, data) => {
    if (type === 'reset') followed.text = data as string;
    if (type === 'append') followed.text += data as string;
    followed.events.push({ type, length: followed.text.length });
  }).catch(() => undefined);
  return followed;
}

/** Opens a lesson's stream as the page's EventSource does and keeps the text it shows. */
async function followLesson(cookie: string, lessonId: number): Promise<Followed> {
  const controller = new AbortController();
  const response = await call(statusLesson, {
    path: `/status/lesson/${lessonId}`,
    cookie,
    params: { lessonId: String(lessonId) },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  return keepText(response, controller);
}

async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Asks the tutor; the answer's pieces as they came, and how it ended. */
async function ask(cookie: string, lessonId: number, question: unknown) {
  const response = await call(tutorRoute, {
    path: `/tutor/${lessonId}`,
    cookie,
    params: { lessonId: String(lessonId) },
    body: { question },
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream'))
    return { status: response.status, body: (await response.json()) as { message: string } };
  const pieces: string[] = [];
  let done: { html: string } | undefined;
  let error: { message: string } | undefined;
  await readEvents(response, (type, data) => {
    if (type === 'append') pieces.push(data as string);
    if (type === 'done') done = data as { html: string };
    if (type === 'error') error = data as { message: string };
  });
  return { status: response.status, pieces, done, error };
}

async function conversation(cookie: string, lessonId: number) {
  const response = await call(tutorRoute, {
    path: `/tutor/${lessonId}`,
    cookie,
    params: { lessonId: String(lessonId) },
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      messages: { role: string; text?: string; html?: string }[];
    },
  };
}

const workers: WorkerProcess[] = [];
/**
 * A worker with the default job lock, or a short one for a worker the test kills (its job is then
 * found stalled within a few seconds). A short lock on a live worker would let a loaded machine's
 * pause look like a crash: the job would run a second try beside the first, and the first try's
 * lesson would be stored while the stream showed the second's draft.
 */
function startWorker(lock: 'default' | 'short-for-a-kill' = 'default') {
  const worker = spawnWorker({
    LOG_LEVEL: 'info',
    ...(lock === 'short-for-a-kill' ? { JOB_LOCK_MS: '1500' } : {}),
  });
  workers.push(worker);
  return worker;
}

const dataDir = () => env().DATA_DIR;

interface Web {
  base: string;
  child: ChildProcess;
  output: () => string;
}
const webs: Web[] = [];

/** One more web process of this install (the production build), as a second server would run. */
async function startWeb(): Promise<Web> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [builtEntry('web-process')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Its draft reads and rereads are in its output, printed when a stream test fails.
      LOG_LEVEL: 'info',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      REDIS_URL: TEST_REDIS_URL,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const web = { base: `http://127.0.0.1:${port}`, child, output: () => output };
  webs.push(web);
  for (const deadline = Date.now() + 30_000; ;) {
    if (child.exitCode !== null) throw new Error(`the web process exited:\n${output}`);
    const up = await fetch(`${web.base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return web;
    if (Date.now() > deadline) throw new Error(`the web process did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A lesson's stream from a web process over HTTP, as the browser's EventSource reads it. */
async function followOverHttp(web: Web, cookie: string, lessonId: number): Promise<Followed> {
  const controller = new AbortController();
  const response = await fetch(`${web.base}/status/lesson/${lessonId}`, {
    headers: { Cookie: cookie, Accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  return keepText(response, controller);
}

beforeAll(() => {
  startVendorMocks();
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => stopWorker(worker, 'SIGTERM')));
  for (const web of webs.splice(0)) if (web.child.exitCode === null) web.child.kill('SIGKILL');
  fs.rmSync(path.join(dataDir(), 'mock-knobs.json'), { force: true });
  delete process.env.AI_REQUESTS_PER_HOUR;
  resetEnvForTests();
});

describe('a lesson as it is written', () => {
  it("is another member's 404, like its tutor", async () => {
    const owner = await member();
    const other = await member();
    const { written, pending } = await course(owner.user.id);

    for (const lessonId of [written, pending, 999_999]) {
      const params = { lessonId: String(lessonId) };
      const stream = await call(statusLesson, {
        path: `/status/lesson/${lessonId}`,
        cookie: other.cookie,
        params,
      });
      expect(stream.status).toBe(404);
      expect((await conversation(other.cookie, lessonId)).status).toBe(404);
      expect((await ask(other.cookie, lessonId, 'What is chlorophyll?')).status).toBe(404);
    }
    const anonymous = await call(statusLesson, {
      path: `/status/lesson/${pending}`,
      params: { lessonId: String(pending) },
    });
    expect(anonymous.status).toBe(401);

    // The owner's written lesson answers at once: it is done.
    const own = await followLesson(owner.cookie, written);
    await own.ended;
    expect(own.events.map((event) => event.type)).toEqual(['done']);
  });

  it('holds a few streams per member at once', async () => {
    const owner = await member();
    const { pending } = await course(owner.user.id);
    const open = await Promise.all(
      Array.from({ length: MAX_STREAMS_PER_MEMBER }, () => followLesson(owner.cookie, pending)),
    );
    const refused = await call(statusLesson, {
      path: `/status/lesson/${pending}`,
      cookie: owner.cookie,
      params: { lessonId: String(pending) },
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      success: false,
      message: TOO_MANY_STREAMS_MESSAGE,
    });
    // Another member is not held back, and a closed stream makes room.
    const other = await member();
    const theirs = await course(other.user.id);
    const otherStream = await followLesson(other.cookie, theirs.pending);
    open[0]!.stop();
    await open[0]!.ended;
    const again = await followLesson(owner.cookie, pending);
    for (const stream of [...open, otherStream, again]) stream.stop();
  });

  it('grows in the stream, and the stored lesson is what the stream ended with', async () => {
    writeKnobs(dataDir(), { MOCK_AI_LATENCY_MS: 300, MOCK_AI_STREAM_CHUNK_MS: 40 });
    const owner = await member();
    const { courseId, pending } = await course(owner.user.id);
    const worker = startWorker();
    await worker.ready;

    const followed = await followLesson(owner.cookie, pending);
    await enqueueLessons([{ lessonId: pending, courseId, priority: 1 }]);
    // A page opened (or reconnected, e.g. to another web process) mid-way starts from the draft.
    await waitFor(() => followed.text.length > 100);
    const late = await followLesson(owner.cookie, pending);
    await Promise.all([followed.ended, late.ended]);
    expect(late.events[0]).toMatchObject({ type: 'reset' });
    expect(late.events[0]!.length).toBeGreaterThan(100);
    expect(late.text).toBe(followed.text);

    const types = followed.events.map((event) => event.type);
    expect(types.at(-1)).toBe('done');
    // The text arrived in many pieces before the lesson was stored.
    const lengths = followed.events.filter((e) => e.type === 'append').map((e) => e.length);
    expect(new Set(lengths).size).toBeGreaterThan(10);
    expect(followed.text).toContain('Understanding Light Reactions in Plants');

    const stored = (await getLesson(pending))!;
    expect(stored.state).toBe('done');
    expect(stored.theory).toBe(markdownToSafeHtml(followed.text.trim()));
    // The draft is gone once the lesson is stored.
    expect(await producerRedis().exists(`${env().REDIS_PREFIX}:draft:lesson:${pending}`)).toBe(0);
  });

  it('survives a worker killed mid-stream: the next try starts the draft over and the lesson is stored once', async () => {
    writeKnobs(dataDir(), { MOCK_AI_STREAM_CHUNK_MS: 80 });
    const owner = await member();
    const { courseId, pending } = await course(owner.user.id);
    const first = startWorker('short-for-a-kill');
    await first.ready;

    const followed = await followLesson(owner.cookie, pending);
    await enqueueLessons([{ lessonId: pending, courseId, priority: 1 }]);
    await waitFor(() => followed.text.length > 40);
    await stopWorker(first, 'SIGKILL');
    const shownAtKill = followed.text;
    const eventsAtKill = followed.events.length;
    expect((await getLesson(pending))!.theory).toBeNull();

    const second = startWorker();
    await second.ready;
    await followed.ended;

    // The second try started the draft over, then wrote the whole lesson (checked below: the
    // page ends with exactly the stored lesson, nothing of the first try's text is left).
    const resetAt = followed.events.findIndex(
      (event, i) => i >= eventsAtKill && event.type === 'reset',
    );
    expect(resetAt, second.output()).toBeGreaterThanOrEqual(eventsAtKill);
    expect(followed.events.at(-1)!.type).toBe('done');
    expect(followed.text.length).toBeGreaterThan(shownAtKill.length);

    const stored = (await getLesson(pending))!;
    expect(stored.state).toBe('done');
    expect(stored.theory).toBe(markdownToSafeHtml(followed.text.trim()));
    const storedLogs = (worker: WorkerProcess) =>
      worker
        .output()
        .split('\n')
        .filter((line) => line.includes('"lesson.stored"')).length;
    expect(storedLogs(first)).toBe(0);
    expect(storedLogs(second)).toBe(1);
  });
});

describe('a draft in Redis', () => {
  it('is read again whole when a piece was lost, and starts over with a new try', async () => {
    const key = 'lesson:424242' as const;
    const writer = startDraft(key);
    writer.append('Hello ');
    const controller = new AbortController();
    const seen: DraftEvent[] = [];
    let text = '';
    await followDraft(key, controller.signal, (event) => {
      seen.push(event);
      if (event.type === 'reset') text = event.text;
      if (event.type === 'append') text += event.text;
    });
    await waitFor(() => text === 'Hello ');

    // As the writer would: a piece whose message never arrived, then the next one, published.
    const redisKey = `${env().REDIS_PREFIX}:draft:${key}`;
    const tryId = (await producerRedis().get(redisKey))!.split('\n')[0]!;
    await producerRedis().append(redisKey, 'lost ');
    await producerRedis().append(redisKey, 'world');
    const before = seen.length;
    await producerRedis().publish(
      `${env().REDIS_PREFIX}:drafts`,
      JSON.stringify({ k: key, g: tryId, at: 'Hello lost '.length, t: 'world' }),
    );
    // The reader sees the piece does not follow on and reads the whole draft again.
    await waitFor(() => text === 'Hello lost world');
    expect(seen.slice(before).map((event) => event.type)).toEqual(['reset']);

    // A new try (the job retried) starts the text over; the end is announced.
    const retry = startDraft(key);
    retry.append('Again');
    await retry.finish();
    await waitFor(() => seen.at(-1)?.type === 'done');
    expect(text).toBe('Again');
    expect(await producerRedis().exists(`${env().REDIS_PREFIX}:draft:${key}`)).toBe(0);
    controller.abort();
  });

  it('never takes a piece from a try that another try has replaced', async () => {
    const key = 'lesson:434343' as const;
    const redisKey = `${env().REDIS_PREFIX}:draft:${key}`;
    const draftText = async () => {
      const value = await producerRedis().get(redisKey);
      return value === null ? null : value.slice(value.indexOf('\n') + 1);
    };
    const draftBecomes = async (expected: string) => {
      for (let tries = 0; (await draftText()) !== expected; tries += 1) {
        if (tries > 200) throw new Error(`the draft never became ${expected}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const stalled = startDraft(key);
    stalled.append('Old ');
    await draftBecomes('Old ');
    const current = startDraft(key);
    current.append('New');
    await draftBecomes('New');

    // The stalled try carries on writing, then ends: the current try's draft is left alone.
    stalled.append('stale piece');
    await stalled.finish();
    expect(await draftText()).toBe('New');
    await current.finish();
    expect(await producerRedis().exists(redisKey)).toBe(0);
  });
});

describe('a lesson stream across web processes', () => {
  it('moves to another web process when its own stops, and starts there from the draft', async () => {
    writeKnobs(dataDir(), { MOCK_AI_STREAM_CHUNK_MS: 80 });
    const owner = await member();
    const { courseId, pending } = await course(owner.user.id);
    const worker = startWorker();
    const [first, second] = await Promise.all([startWeb(), startWeb(), worker.ready]);

    const onFirst = await followOverHttp(first, owner.cookie, pending);
    await enqueueLessons([{ lessonId: pending, courseId, priority: 1 }]);
    await waitFor(() => onFirst.text.length > 40);
    const stopped = Date.now();
    first.child.kill('SIGTERM');
    await onFirst.ended;
    // The stream is closed at once rather than holding the stopping process open.
    expect(Date.now() - stopped).toBeLessThan(5_000);
    expect(onFirst.events.at(-1)!.type).not.toBe('done');

    // The page's EventSource reconnects, here to the other web process.
    const onSecond = await followOverHttp(second, owner.cookie, pending);
    await onSecond.ended;
    expect(onSecond.events[0]!.type).toBe('reset');
    expect(onSecond.events[0]!.length).toBeGreaterThanOrEqual(onFirst.text.length);
    expect(onSecond.text.startsWith(onFirst.text)).toBe(true);
    expect(onSecond.events.at(-1)!.type).toBe('done');
    const story = [
      `first: ${JSON.stringify(onFirst.events)}`,
      `second: ${JSON.stringify(onSecond.events)}`,
      `worker:\n${worker.output()}`,
      `second web:\n${second.output()}`,
    ].join('\n');
    expect((await getLesson(pending))!.theory, story).toBe(
      markdownToSafeHtml(onSecond.text.trim()),
    );
  });
});

describe('the tutor', () => {
  it('streams an answer grounded in the lesson, keeps the conversation and declines the unrelated', async () => {
    writeKnobs(dataDir(), { MOCK_AI_STREAM_CHUNK_MS: 5 });
    const owner = await member();
    const { written } = await course(owner.user.id);

    const answered = await ask(owner.cookie, written, 'How does chlorophyll absorb light?');
    expect(answered.status).toBe(200);
    expect(answered.pieces!.length).toBeGreaterThan(5);
    const streamed = answered.pieces!.join('');
    expect(streamed).toContain('**Chlorophyll**');
    // The final answer is the stored, sanitized Markdown of what streamed.
    expect(answered.done!.html).toBe(markdownToSafeHtml(streamed.trim()));
    expect(answered.done!.html).toContain('<strong>Chlorophyll</strong>');

    const declined = await ask(owner.cookie, written, 'Who won the football world cup in 1998?');
    expect(declined.done!.html).toContain('I can only help with');

    const kept = await conversation(owner.cookie, written);
    expect(kept.body.messages).toEqual([
      { id: expect.any(Number), role: 'user', text: 'How does chlorophyll absorb light?' },
      { id: expect.any(Number), role: 'assistant', html: answered.done!.html },
      { id: expect.any(Number), role: 'user', text: 'Who won the football world cup in 1998?' },
      { id: expect.any(Number), role: 'assistant', html: declined.done!.html },
    ]);
  });

  it('refuses empty and long questions with a 400, and stores nothing', async () => {
    const owner = await member();
    const { written, pending } = await course(owner.user.id);
    expect(await ask(owner.cookie, written, '   ')).toMatchObject({
      status: 400,
      body: { success: false, message: EMPTY_QUESTION_MESSAGE },
    });
    expect(await ask(owner.cookie, written, 'x'.repeat(MAX_QUESTION_LENGTH + 1))).toMatchObject({
      status: 400,
      body: { success: false, message: QUESTION_TOO_LONG_MESSAGE },
    });
    expect((await ask(owner.cookie, written, 42)).status).toBe(400);
    // A lesson still being written has nothing to ground an answer in yet.
    expect((await ask(owner.cookie, pending, 'What is light?')).status).toBe(409);
    expect((await conversation(owner.cookie, written)).body.messages).toEqual([]);
  });

  it('says so when an answer fails, keeps none of it, and answers when asked again', async () => {
    writeKnobs(dataDir(), {
      MOCK_AI_STREAM_CHUNK_MS: 0,
      MOCK_AI_FAIL_FIRST: 1,
      MOCK_AI_FAIL_MATCH: 'stomata',
    });
    process.env.AI_REQUESTS_PER_HOUR = '2';
    resetEnvForTests();
    const owner = await member();
    const { written } = await course(owner.user.id);

    const failed = await ask(owner.cookie, written, 'Do chlorophyll and stomata work together?');
    expect(failed).toMatchObject({ status: 200, error: { message: TUTOR_FAILED_MESSAGE } });
    expect(failed.done).toBeUndefined();
    expect((await conversation(owner.cookie, written)).body.messages).toEqual([]);

    // The failed answer did not count: two more questions fit in an allowance of two.
    const again = await ask(owner.cookie, written, 'Do chlorophyll and stomata work together?');
    expect(again.done!.html).toContain('Chlorophyll');
    expect((await ask(owner.cookie, written, 'Why is chlorophyll green?')).done).toBeDefined();
    expect((await conversation(owner.cookie, written)).body.messages).toHaveLength(4);
  });

  it('counts each question against the hourly AI allowance and the plan’s daily tutor cap', async () => {
    writeKnobs(dataDir(), { MOCK_AI_STREAM_CHUNK_MS: 0 });
    process.env.AI_REQUESTS_PER_HOUR = '3';
    resetEnvForTests();
    const paid = await member('monthly');
    const paidCourse = await course(paid.user.id);
    for (let i = 0; i < 3; i += 1)
      expect(
        (await ask(paid.cookie, paidCourse.written, `Chlorophyll question ${i}`)).done,
      ).toBeDefined();
    expect(await ask(paid.cookie, paidCourse.written, 'Chlorophyll once more?')).toMatchObject({
      status: 429,
      body: { success: false, message: TUTOR_ALLOWANCE_MESSAGE },
    });

    process.env.AI_REQUESTS_PER_HOUR = '1000';
    resetEnvForTests();
    // The operator's setting, not the product's default (20), caps a free member's day.
    const cap = 3;
    await writeSetting(
      PLANS_KEY,
      JSON.stringify({
        ...DEFAULT_PLAN_SETTINGS,
        free: { ...DEFAULT_PLAN_SETTINGS.free, tutorQuestionsPerDay: cap },
      }),
    );
    forgetPlans();
    try {
      const free = await member('free');
      const freeCourse = await course(free.user.id);
      for (let i = 0; i < cap; i += 1)
        expect(
          (await ask(free.cookie, freeCourse.written, `Chlorophyll question ${i}`)).done,
        ).toBeDefined();
      const refused = await ask(free.cookie, freeCourse.written, 'Chlorophyll once more?');
      expect(refused).toMatchObject({
        status: 429,
        body: { success: false, message: tutorDailyCapMessage('free', cap, 24 * 3600) },
      });
      expect(refused.body!.message).toContain(`${cap} questions today`);
      expect((await conversation(free.cookie, freeCourse.written)).body.messages).toHaveLength(
        cap * 2,
      );
    } finally {
      await database().delete(tables.settings).where(eq(tables.settings.key, PLANS_KEY));
      forgetPlans();
    }
  });
});
