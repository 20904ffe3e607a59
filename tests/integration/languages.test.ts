import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as apiCourse from '~/routes/api/api.course';
import * as apiCourses from '~/routes/api/api.courses';
import * as createPage from '~/routes/member/create';
import { UNKNOWN_LANGUAGE_MESSAGE } from '~/domain/languages';
import { courseStatus, getCourseForUser } from '~/models/courses.server';
import { listLessonsOfCourse } from '~/models/lessons.server';
import { getOutline, outlineStatus, UNUSABLE_NOTICE_AFTER } from '~/models/outlines.server';
import { createUser, type User } from '~/models/users.server';
import { startCourse, startOutline } from '~/services/course-generation.server';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';
import { startVendorMocks } from '~/utils/mocks.server';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/**
 * Course languages on the server (the list is enforced, the language is stored and given back)
 * and the OpenAI-compatible provider writing a whole course through the real worker.
 */
const running: WorkerProcess[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((worker) => stopWorker(worker, 'SIGTERM')));
});

beforeAll(() => {
  startVendorMocks();
});

let counter = 0;
async function member(plan: User['plan'] = 'free') {
  counter += 1;
  const user = await createUser({
    email: `languages-${counter}@example.com`,
    name: `Member ${counter}`,
    password: 'long-enough-password',
    plan,
  });
  return { user, cookie: (await createSession(user.id)).split(';')[0]! };
}

async function post(route: { action: unknown }, cookie: string, body: URLSearchParams | object) {
  const form = body instanceof URLSearchParams;
  const request = new Request('http://localhost/', {
    method: 'POST',
    headers: form ? { Cookie: cookie } : { Cookie: cookie, 'Content-Type': 'application/json' },
    body: form ? body : JSON.stringify(body),
  });
  const action = route.action as (args: {
    request: Request;
    params: Record<string, string>;
    context: { clientIp: string };
  }) => Promise<unknown>;
  try {
    return await action({ request, params: {}, context: { clientIp: '1.2.3.4' } });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const DEVANAGARI = /\p{Script=Devanagari}{3}/u;

describe('the course language on the server', () => {
  it('/create refuses a language not on the list with a clear 400 and stores nothing', async () => {
    const { user, cookie } = await member();
    const form = (language: string) =>
      new URLSearchParams({
        topic: 'Chess',
        subtopic: 'Openings',
        topicCount: '5',
        type: 'text',
        language,
      });
    const refused = (await post(createPage, cookie, form('tlh'))) as {
      data: { error: string };
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.error).toBe(UNKNOWN_LANGUAGE_MESSAGE);
    const { outlines } = tables;
    expect(await database().select().from(outlines).where(eq(outlines.userId, user.id))).toEqual(
      [],
    );

    const accepted = (await post(createPage, cookie, form('hi'))) as Response;
    expect(accepted.status).toBe(302);
    const outlineId = accepted.headers.get('Location')!.split('/').pop()!;
    expect((await getOutline(outlineId))?.language).toBe('hi');
  });

  it('/api/course refuses an unknown language, stores a known one and gives it back', async () => {
    const { user, cookie } = await member();
    const content = { algebra: [{ title: 'Equations', subtopics: [{ title: 'Linear' }] }] };
    const refused = (await post(apiCourse, cookie, {
      content,
      type: 'text',
      mainTopic: 'Algebra',
      language: 'xx',
    })) as Response;
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      success: false,
      message: UNKNOWN_LANGUAGE_MESSAGE,
    });
    const { courses } = tables;
    expect(await database().select().from(courses).where(eq(courses.userId, user.id))).toEqual([]);

    const created = (await post(apiCourse, cookie, {
      content,
      type: 'text',
      mainTopic: 'الجبر',
      language: 'ar',
    })) as Response;
    const { courseId } = (await created.json()) as { courseId: string };
    expect((await getCourseForUser(courseId, user.id))?.language).toBe('ar');

    // Without a language (the original clients), a course is English.
    const english = (await post(apiCourse, cookie, {
      content,
      type: 'text',
      mainTopic: 'Algebra',
    })) as Response;
    expect(english.status).toBe(200);

    const listed = (await (apiCourses.loader as (args: { request: Request }) => Promise<Response>)({
      request: new Request('http://localhost/api/courses', { headers: { Cookie: cookie } }),
    }).then((response) => response.json())) as { _id: string; language: string }[];
    expect(listed.map((course) => course.language).sort()).toEqual(['ar', 'en']);
  });
});

describe('the OpenAI-compatible provider', () => {
  it('writes a whole Hindi course through the worker, retrying malformed outlines and waiting out a rate limit like Anthropic', async () => {
    const worker = spawnWorker({
      AI_PROVIDER: 'openai',
      JOB_BACKOFF_BASE_MS: '100',
      MOCK_AI_MALFORMED: '2',
      MOCK_AI_FAIL_FIRST: '1',
      MOCK_AI_FAIL_STATUS: '429',
      MOCK_AI_FAIL_MATCH: 'Sub-topic: परिचय 1:',
    });
    running.push(worker);
    await worker.ready;
    expect(worker.output()).toMatch(/"demo\.mocks_started".*"openai"/);

    const { user } = await member();
    const started = await startOutline(user, {
      mainTopic: 'Python',
      subtopics: ['Decorators'],
      topicCount: 5,
      type: 'text',
      language: 'hi',
    });
    if (!started.ok) throw new Error(started.message);
    const outline = await waitFor(async () => {
      const row = (await getOutline(started.value.id))!;
      // Until the outline is accepted, nothing of the malformed answers is stored.
      if (row.state !== 'done') expect(row.result).toBeNull();
      return row.state === 'done' ? row : undefined;
    });
    expect(outline.attempts).toBe(2);
    expect(outline.result).toHaveLength(5);
    // The member's own topic stays as typed; the others are written in Hindi.
    expect(outline.result![0]!.title).toBe('Decorators');
    for (const topic of outline.result!.slice(1)) expect(topic.title).toMatch(DEVANAGARI);

    const course = await startCourse(user, started.value.id);
    if (!course.ok) throw new Error(course.message);
    const status = await waitFor(async () => {
      const current = await courseStatus(course.value);
      return current.generating ? undefined : current;
    });
    expect(status.ready).toBe(10);
    expect((await getCourseForUser(course.value, user.id))?.language).toBe('hi');
    const lessons = await listLessonsOfCourse(course.value);
    for (const lesson of lessons) expect(lesson.theory).toMatch(DEVANAGARI);
    // The lesson the provider refused once (429 with Retry-After) waited it out without using
    // a try (ADR 0024): no lesson shows a failure.
    expect(lessons.filter((lesson) => lesson.attempts > 0)).toEqual([]);
    // The failures were the OpenAI SDK's own errors, read by its provider.
    expect(worker.output()).toContain('AiOutputError');
    expect(worker.output()).toMatch(/"job\.rate_limited".*Rate limit reached/);
  });

  it('keeps retrying an outline a model always botches, storing nothing, and says so', async () => {
    const worker = spawnWorker({
      AI_PROVIDER: 'openai',
      JOB_BACKOFF_BASE_MS: '100',
      MOCK_AI_MALFORMED: 'always',
    });
    running.push(worker);
    await worker.ready;
    const { user } = await member();
    const started = await startOutline(user, {
      mainTopic: 'Haskell',
      subtopics: ['Monads'],
      topicCount: 5,
      type: 'text',
      language: 'ar',
    });
    if (!started.ok) throw new Error(started.message);
    const row = await waitFor(async () => {
      const current = (await getOutline(started.value.id))!;
      return current.attempts >= UNUSABLE_NOTICE_AFTER ? current : undefined;
    });
    expect(row.state).toBe('retrying');
    expect(row.result).toBeNull();
    expect(row.failureKind).toBe('unusable');
    expect((await outlineStatus(row)).unusable).toBe(true);
  });
});
