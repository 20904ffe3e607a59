import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as apiCourse from '~/routes/api/api.course';
import * as apiCourses from '~/routes/api/api.courses';
import * as apiGenerate from '~/routes/api/api.generate';
import * as apiImage from '~/routes/api/api.image';
import * as apiPrompt from '~/routes/api/api.prompt';
import * as apiTranscript from '~/routes/api/api.transcript';
import * as apiUpdate from '~/routes/api/api.update';
import * as apiYt from '~/routes/api/api.yt';
import * as coursePage from '~/routes/member/course.$courseId';
import * as createPage from '~/routes/member/create';
import * as statusCourse from '~/routes/member/status.course.$courseId';
import * as statusOutline from '~/routes/member/status.outline.$outlineId';
import * as topicsPage from '~/routes/member/topics.$outlineId';
import {
  COURSE_TOO_LARGE_MESSAGE,
  LESSON_TOO_LONG_MESSAGE,
  MAX_COURSE_TEXT_CHARS,
  MAX_LESSON_TEXT_CHARS,
} from '~/domain/content-limits';
import {
  DEFAULT_LESSONS_PER_TOPIC,
  aiLessonLimit,
  aiLessonLimitMessage,
  DEFAULT_PLANS,
} from '~/domain/plans';
import { createOutline, getOutline, storeOutlineResult } from '~/models/outlines.server';
import { createUser, type User } from '~/models/users.server';
import { startOutline } from '~/services/course-generation.server';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { startVendorMocks } from '~/utils/mocks.server';

/**
 * The /api routes of section 7 and the course pages' server side, called as
 * a request would call them, in demo mode against the vendor mocks.
 */
type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: { clientIp: string };
}) => Promise<unknown>;

interface Call {
  method?: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown> | URLSearchParams;
  cookie?: string;
  params?: Record<string, string>;
}

async function call(route: { loader?: unknown; action?: unknown }, options: Call) {
  const method = options.method ?? (options.body ? 'POST' : 'GET');
  const headers: Record<string, string> = {};
  if (options.cookie) headers.Cookie = options.cookie;
  let body: string | URLSearchParams | undefined;
  if (options.body instanceof URLSearchParams) body = options.body;
  else if (options.body) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const request = new Request(`http://localhost${options.path}`, { method, headers, body });
  const handler = (method === 'GET' ? route.loader : route.action) as Handler;
  try {
    return await handler({
      request,
      params: options.params ?? {},
      context: { clientIp: '1.2.3.4' },
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function json(route: { loader?: unknown; action?: unknown }, options: Call) {
  const response = (await call(route, options)) as Response;
  // JSON bodies of many shapes, read field by field in the assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

let counter = 0;
async function member(plan: User['plan'] = 'free') {
  counter += 1;
  const user = await createUser({
    email: `api-${counter}@example.com`,
    name: `Member ${counter}`,
    password: 'long-enough-password',
    plan,
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

const content = (done = false) => ({
  'web design': [
    {
      title: 'Layout',
      subtopics: [
        { title: 'Grids', theory: '<p>Grids <script>alert(1)</script></p>', done },
        { title: 'Flexbox', theory: '<p>Flex</p>', image: 'https://images.test/f.png', done },
      ],
    },
    { title: 'Colour', subtopics: [{ title: 'Contrast', theory: '<p>Contrast</p>', done }] },
  ],
});

beforeAll(() => {
  startVendorMocks();
});

afterEach(() => {
  delete process.env.AI_REQUESTS_PER_HOUR;
  delete process.env.MOCK_AI_FAIL_FIRST;
  delete process.env.MOCK_AI_FAIL_STATUS;
  delete process.env.MOCK_TRANSCRIPT_UNAVAILABLE;
  resetEnvForTests();
});

describe('/api/course, /api/courses and /api/update', () => {
  it('stores content as rows and gives it back in the spec shape', async () => {
    const { user, cookie } = await member();
    const created = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: { user: user.id, content: content(), type: 'text', mainTopic: 'Web Design' },
    });
    expect(created).toMatchObject({
      status: 200,
      body: { success: true, message: 'Course created successfully', completed: false },
    });
    const courseId = created.body.courseId as string;

    const fetched = await json(apiCourse, { path: `/api/course?courseId=${courseId}`, cookie });
    const record = fetched.body.course;
    expect(record).toMatchObject({ _id: courseId, user: user.id, mainTopic: 'Web Design' });
    // The spec's course record: its content is JSON text.
    expect(record.content).toBeTypeOf('string');
    const stored = JSON.parse(record.content as string);
    expect(Object.keys(stored)).toEqual(['web design']);
    const [layout, colour] = stored['web design'];
    expect(layout.subtopics[0]).toEqual({
      title: 'Grids',
      theory: '<p>Grids </p>',
      youtube: '',
      image: '',
      done: false,
    });
    expect(layout.subtopics[1].image).toBe('https://images.test/f.png');
    expect(colour.title).toBe('Colour');

    const updated = await json(apiUpdate, {
      path: '/api/update',
      cookie,
      body: { courseId, content: JSON.stringify(content(true)) },
    });
    expect(updated).toMatchObject({ status: 200, body: { success: true } });
    const after = await json(apiCourse, { path: `/api/course?courseId=${courseId}`, cookie });
    const lessons = JSON.parse(after.body.course.content as string)['web design'].flatMap(
      (topic: { subtopics: { done: boolean }[] }) => topic.subtopics,
    );
    expect(lessons.map((l: { done: boolean }) => l.done)).toEqual([true, true, true]);

    const wrongShape = await json(apiUpdate, {
      path: '/api/update',
      cookie,
      body: { courseId, content: { 'web design': [content()['web design'][0]] } },
    });
    expect(wrongShape.status).toBe(400);
  });

  it("lists only the caller's courses and hides everyone else's", async () => {
    const alice = await member();
    const bob = await member();
    const { body } = await json(apiCourse, {
      path: '/api/course',
      cookie: alice.cookie,
      body: { content: content(), type: 'text', mainTopic: 'Web Design' },
    });
    const courseId = body.courseId as string;

    const own = await json(apiCourses, {
      path: `/api/courses?userId=${alice.user.id}`,
      cookie: alice.cookie,
    });
    expect(own.status).toBe(200);
    expect(own.body).toEqual([
      expect.objectContaining({
        _id: courseId,
        mainTopic: 'Web Design',
        type: 'text',
        completed: false,
      }),
    ]);
    // With its content as JSON text, as the spec's course record has it.
    expect(JSON.parse(own.body[0].content as string)).toEqual({
      'web design': content()['web design'].map((topic) => ({
        ...topic,
        subtopics: topic.subtopics.map((lesson) => ({
          ...lesson,
          theory: expect.any(String),
          youtube: '',
          image: expect.any(String),
        })),
      })),
    });

    const others = await json(apiCourses, { path: '/api/courses', cookie: bob.cookie });
    expect(others.body).toEqual([]);
    const spoofed = await json(apiCourses, {
      path: `/api/courses?userId=${alice.user.id}`,
      cookie: bob.cookie,
    });
    expect(spoofed.status).toBe(403);

    for (const response of [
      await json(apiCourse, { path: `/api/course?courseId=${courseId}`, cookie: bob.cookie }),
      await json(apiUpdate, {
        path: '/api/update',
        cookie: bob.cookie,
        body: { courseId, content: content(true) },
      }),
      await json(statusCourse, {
        path: `/status/course/${courseId}`,
        cookie: bob.cookie,
        params: { courseId },
      }),
    ])
      expect(response.status).toBe(404);
    const page = (await call(coursePage, {
      path: `/course/${courseId}`,
      cookie: bob.cookie,
      params: { courseId },
    })) as Response;
    expect(page.status).toBe(404);

    const asSomeoneElse = await json(apiCourse, {
      path: '/api/course',
      cookie: bob.cookie,
      body: { user: alice.user.id, content: content(), type: 'text', mainTopic: 'X' },
    });
    expect(asSomeoneElse.status).toBe(403);
    expect((await json(apiCourses, { path: '/api/courses' })).status).toBe(401);
  });

  it('refuses more lesson text than a member may store, with the limit, storing nothing', async () => {
    const { user, cookie } = await member();
    const withTheory = (lessons: number, chars: number, topics = 1) =>
      JSON.stringify({
        big: Array.from({ length: topics }, (_, t) => ({
          title: `Big ${t}`,
          subtopics: Array.from({ length: lessons }, (_, i) => ({
            title: `L${i}`,
            theory: `<p>${'x'.repeat(chars)}</p>`,
          })),
        })),
      });
    const tooLong = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: { content: withTheory(1, MAX_LESSON_TEXT_CHARS), type: 'text', mainTopic: 'Big' },
    });
    expect(tooLong).toMatchObject({ status: 413, body: { message: LESSON_TOO_LONG_MESSAGE } });
    const tooMuch = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: {
        content: withTheory(6, MAX_COURSE_TEXT_CHARS / 12, 2),
        type: 'text',
        mainTopic: 'Big',
      },
    });
    expect(tooMuch).toMatchObject({ status: 413, body: { message: COURSE_TOO_LARGE_MESSAGE } });
    expect(
      await database().select().from(tables.courses).where(eq(tables.courses.userId, user.id)),
    ).toEqual([]);

    const fits = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: { content: withTheory(6, 50_000), type: 'text', mainTopic: 'Big' },
    });
    expect(fits.status).toBe(200);
    const update = await json(apiUpdate, {
      path: '/api/update',
      cookie,
      body: { courseId: fits.body.courseId, content: withTheory(6, MAX_LESSON_TEXT_CHARS) },
    });
    expect(update).toMatchObject({ status: 413, body: { message: LESSON_TOO_LONG_MESSAGE } });
  });

  it('limits how often a member writes course content', async () => {
    const { cookie } = await member();
    const statuses: number[] = [];
    for (let i = 0; i < 121; i += 1) {
      const answer = await json(apiCourse, {
        path: '/api/course',
        cookie,
        body: { content: 'not json', type: 'text', mainTopic: 'Spam' },
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 120).every((status) => status === 400)).toBe(true);
    expect(statuses[120]).toBe(429);
  });

  it('lets the AI write as many lessons of a course as /create would, and no more', async () => {
    const blank = (topics: number, lessons: number) => ({
      ai: Array.from({ length: topics }, (_, t) => ({
        title: `Topic ${t}`,
        subtopics: Array.from({ length: lessons }, (_, l) => ({ title: `Lesson ${t}.${l}` })),
      })),
    });
    const free = await member('free');
    const limit = aiLessonLimit(DEFAULT_PLANS.free);
    // Five topics of six lessons without theory: 30 AI lessons, more than a free /create gives.
    const tooMany = await json(apiCourse, {
      path: '/api/course',
      cookie: free.cookie,
      body: { content: blank(5, 6), type: 'text', mainTopic: 'AI' },
    });
    expect(tooMany).toMatchObject({ status: 403, body: { message: aiLessonLimitMessage(limit) } });
    expect(
      await database().select().from(tables.courses).where(eq(tables.courses.userId, free.user.id)),
    ).toEqual([]);

    const fits = await json(apiCourse, {
      path: '/api/course',
      cookie: free.cookie,
      body: { content: blank(5, DEFAULT_LESSONS_PER_TOPIC), type: 'text', mainTopic: 'AI' },
    });
    expect(fits.status).toBe(200);
    // Lessons with their own theory cost the AI nothing: any number the course shape allows.
    const written = await json(apiCourse, {
      path: '/api/course',
      cookie: free.cookie,
      body: { content: content(), type: 'text', mainTopic: 'Web Design' },
    });
    expect(written.status).toBe(200);
  });

  it("refuses what a free member's plan does not include", async () => {
    const free = await member('free');
    const video = await json(apiCourse, {
      path: '/api/course',
      cookie: free.cookie,
      body: { content: content(), type: 'video', mainTopic: 'Web Design' },
    });
    expect(video).toMatchObject({ status: 403, body: { message: 'For paid members only' } });

    const paid = await member('yearly');
    const ok = await json(apiCourse, {
      path: '/api/course',
      cookie: paid.cookie,
      body: { content: content(), type: 'video', mainTopic: 'Web Design' },
    });
    expect(ok.status).toBe(200);
  });
});

describe('/create and the outline status', () => {
  it('enforces the free plan on the server and stores nothing', async () => {
    const { user, cookie } = await member('free');
    for (const [topicCount, type] of [
      ['10', 'text'],
      ['5', 'video'],
    ]) {
      const form = new URLSearchParams({
        topic: 'Chess',
        subtopic: 'Openings',
        topicCount: topicCount!,
        type: type!,
      });
      const result = (await call(createPage, { path: '/create', cookie, body: form })) as {
        data: { error: string };
        init: { status: number };
      };
      expect(result.init.status).toBe(403);
      expect(result.data.error).toBe('For paid members only');
    }
    expect(
      await database().select().from(tables.outlines).where(eq(tables.outlines.userId, user.id)),
    ).toEqual([]);

    const missing = new URLSearchParams({
      topic: 'Chess',
      subtopic: '  ',
      topicCount: '5',
      type: 'text',
    });
    const refused = (await call(createPage, { path: '/create', cookie, body: missing })) as {
      data: { error: string };
    };
    expect(refused.data.error).toBe('Please fill in all required fields: Sub Topic, or paste text');

    const six = new URLSearchParams({ topic: 'Chess', topicCount: '5', type: 'text' });
    for (const s of ['a', 'b', 'c', 'd', 'e', 'f']) six.append('subtopic', s);
    const tooMany = (await call(createPage, { path: '/create', cookie, body: six })) as {
      data: { error: string };
    };
    expect(tooMany.data.error).toBe('You can only add 5 sub topics');

    const good = new URLSearchParams({
      topic: 'Chess',
      subtopic: 'Openings',
      topicCount: '5',
      type: 'text',
    });
    const redirect = (await call(createPage, { path: '/create', cookie, body: good })) as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('Location')).toMatch(/^\/topics\/[\w-]+$/);
  });

  it("answers an outline's state to its owner only", async () => {
    const alice = await member();
    const bob = await member();
    const started = await startOutline(alice.user, {
      mainTopic: 'Chess',
      subtopics: ['Openings'],
      topicCount: 5,
      type: 'text',
    });
    if (!started.ok) throw new Error(started.message);
    const outlineId = started.value.id;
    const own = await json(statusOutline, {
      path: `/status/outline/${outlineId}`,
      cookie: alice.cookie,
      params: { outlineId },
    });
    expect(own).toMatchObject({
      status: 200,
      body: { state: 'queued', attempts: 0, topics: null },
    });
    const other = await json(statusOutline, {
      path: `/status/outline/${outlineId}`,
      cookie: bob.cookie,
      params: { outlineId },
    });
    expect(other.status).toBe(404);
  });
});

describe('the AI and media /api routes', () => {
  it('need a signed-in member', async () => {
    for (const route of [apiPrompt, apiGenerate, apiImage, apiYt, apiTranscript]) {
      const { status } = await json(route, { path: '/api/x', body: { prompt: 'hello' } });
      expect(status).toBe(401);
    }
  });

  it('answer a member: outline JSON, text, image, video id and transcript', async () => {
    const { cookie } = await member();
    const prompt = await json(apiPrompt, {
      path: '/api/prompt',
      cookie,
      body: { prompt: 'Main topic: Cooking\nNumber of topics: 5\nTopics to include: Knives' },
    });
    expect(prompt.status).toBe(200);
    const outline = JSON.parse(prompt.body.generatedText as string);
    expect(Object.keys(outline)).toEqual(['cooking']);
    expect(outline.cooking).toHaveLength(5);

    const text = await json(apiGenerate, {
      path: '/api/generate',
      cookie,
      body: { prompt: 'Main topic: Cooking\nSub-topic: Knife skills' },
    });
    expect(text.body.text).toContain('Knife skills');
    // Sanitized HTML, as the spec's clients put it in the page.
    expect(text.body.text).toMatch(/^<[a-z]/);

    const image = await json(apiImage, { path: '/api/image', cookie, body: { prompt: 'knives' } });
    // Absolute, so that a client on another origin can show it (ADR 0057).
    expect(image.body.url).toMatch(/^https?:\/\/[^/]+\/images\/demo\/photo-\d\.png$/);
    expect(image.body.credit.url).toContain('unsplash.com');

    const video = await json(apiYt, { path: '/api/yt', cookie, body: { prompt: 'knives' } });
    expect(video.body.url).toMatch(/^[\w-]{11}$/);

    const transcript = await json(apiTranscript, {
      path: '/api/transcript',
      cookie,
      body: { prompt: video.body.url },
    });
    expect(transcript.status).toBe(200);
    // The spec's shape: `url` is the list of items with their text.
    expect(transcript.body.url[1].text).toBe(
      "Today we'll look at the main idea & a worked example.",
    );

    process.env.MOCK_TRANSCRIPT_UNAVAILABLE = 'true';
    const none = await json(apiTranscript, {
      path: '/api/transcript',
      cookie,
      body: { prompt: video.body.url },
    });
    expect(none.status).toBe(404);
  });

  it('answer /api/prompt within seconds after the AI is overloaded once, and say so when it stays so', async () => {
    const { cookie } = await member();
    const ask = async () => {
      const started = Date.now();
      const answer = await json(apiPrompt, {
        path: '/api/prompt',
        cookie,
        body: { prompt: `Main topic: Sourdough ${started}\nNumber of topics: 5` },
      });
      return { ...answer, ms: Date.now() - started };
    };
    process.env.MOCK_AI_FAIL_STATUS = '529';
    process.env.MOCK_AI_FAIL_FIRST = '1';
    const once = await ask();
    expect(once.status).toBe(200);
    expect(once.ms).toBeLessThan(5_000);

    process.env.MOCK_AI_FAIL_FIRST = '100';
    const always = await ask();
    expect(always.status).toBe(502);
    expect(always.body.message).toBe('The AI service is unavailable. Please try again.');
    expect(always.ms).toBeLessThan(10_000);
  });

  it('give an outline from /api/prompt that /api/course saves as it is', async () => {
    const { cookie } = await member('yearly');
    // The model gives 8 sub-topics per topic; the AI writes at most 4 per topic, as for /create.
    const prompt = await json(apiPrompt, {
      path: '/api/prompt',
      cookie,
      body: { prompt: 'Main topic: Cooking\nNumber of topics: 10\nSub-topics per topic: 8' },
    });
    expect(prompt.status).toBe(200);
    const outline = JSON.parse(prompt.body.generatedText as string) as Record<
      string,
      { subtopics: unknown[] }[]
    >;
    expect(outline.cooking!.map((topic) => topic.subtopics.length)).toEqual(
      Array(10).fill(DEFAULT_LESSONS_PER_TOPIC),
    );

    const saved = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: { content: prompt.body.generatedText, type: 'text', mainTopic: 'Cooking' },
    });
    expect(saved).toMatchObject({ status: 200, body: { success: true } });
    const course = await json(apiCourse, {
      path: `/api/course?courseId=${saved.body.courseId}`,
      cookie,
    });
    expect(JSON.parse(course.body.course.content as string).cooking).toHaveLength(10);
  });

  it('are rate-limited per member, so they are no open proxy', async () => {
    process.env.AI_REQUESTS_PER_HOUR = '2';
    resetEnvForTests();
    const { cookie } = await member();
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push(
        (await json(apiGenerate, { path: '/api/generate', cookie, body: { prompt: 'hi' } })).status,
      );
    expect(statuses).toEqual([200, 200, 429]);
    const other = await member();
    expect(
      (
        await json(apiGenerate, {
          path: '/api/generate',
          cookie: other.cookie,
          body: { prompt: 'hi' },
        })
      ).status,
    ).toBe(200);
  });

  it('charge a new course one unit per lesson it will generate, and refuse one that does not fit', async () => {
    process.env.AI_REQUESTS_PER_HOUR = '12';
    resetEnvForTests();
    const { user, cookie } = await member('yearly');
    const generate = async () =>
      (await json(apiGenerate, { path: '/api/generate', cookie, body: { prompt: 'hi' } })).status;
    const pending = (lessons: number) => ({
      rust: Array.from({ length: Math.ceil(lessons / 5) }, (_, t) => ({
        title: `Topic ${t + 1}`,
        subtopics: Array.from({ length: Math.min(5, lessons - t * 5) }, (_, l) => ({
          title: `Lesson ${t * 5 + l + 1}`,
        })),
      })),
    });
    const ownCourses = async () =>
      (await database().select().from(tables.courses).where(eq(tables.courses.userId, user.id)))
        .length;

    // 13 lessons to generate do not fit in 12: nothing is created, and nothing is used up.
    const tooBig = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: { content: pending(13), type: 'text', mainTopic: 'Rust' },
    });
    expect(tooBig.status).toBe(429);
    expect(tooBig.body.message).toMatch(/^Too many attempts/);
    expect(await ownCourses()).toBe(0);

    // 10 lessons cost 10 of the 12; lessons that come with theory cost nothing.
    const created = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: { content: pending(10), type: 'text', mainTopic: 'Rust' },
    });
    expect(created.status).toBe(200);
    const free = await json(apiCourse, {
      path: '/api/course',
      cookie,
      body: { content: content(), type: 'text', mainTopic: 'Web Design' },
    });
    expect(free.status).toBe(200);
    expect([await generate(), await generate(), await generate()]).toEqual([200, 200, 429]);
    expect(await ownCourses()).toBe(2);
  });

  it('charge Generate Course the lesson count of the outline', async () => {
    process.env.AI_REQUESTS_PER_HOUR = '8';
    resetEnvForTests();
    const { user, cookie } = await member();
    /** An outline of 5 topics with one lesson each, `doubled` of them with two. */
    const outlineWith = async (doubled: number) => {
      // Stored directly: the outline's own AI call is not what this test counts.
      const outline = await createOutline({
        userId: user.id,
        mainTopic: 'Chess',
        subtopics: ['Openings'],
        topicCount: 5,
        courseType: 'text',
      });
      const topics = Array.from({ length: 5 }, (_, t) => ({
        title: `Topic ${t + 1}`,
        lessons: Array.from({ length: t < doubled ? 2 : 1 }, (_, l) => ({
          title: `Lesson ${t}.${l}`,
        })),
      }));
      await storeOutlineResult(outline.id, topics);
      return outline.id;
    };
    const generateCourse = (outlineId: string) =>
      call(topicsPage, {
        path: `/topics/${outlineId}`,
        cookie,
        body: new URLSearchParams(),
        params: { outlineId },
      });

    // Outline of 5 + 4 = 9 lessons against an allowance of 8: refused, nothing created.
    const large = await outlineWith(4);
    const refused = (await generateCourse(large)) as {
      data: { error: string };
      init: { status: number };
    };
    expect(refused.init.status).toBe(429);
    expect(refused.data.error).toBe(
      'You have generated a lot of courses this hour. Please try again later.',
    );
    expect((await getOutline(large))!.courseId).toBeNull();
    expect(
      await database().select().from(tables.courses).where(eq(tables.courses.userId, user.id)),
    ).toEqual([]);

    // 7 lessons fit; opening the same outline again costs nothing more.
    const small = await outlineWith(2);
    const first = (await generateCourse(small)) as Response;
    expect(first.status).toBe(302);
    const again = (await generateCourse(small)) as Response;
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
    // 7 used: one more unit is left, and then none.
    expect(
      (await json(apiGenerate, { path: '/api/generate', cookie, body: { prompt: 'hi' } })).status,
    ).toBe(200);
    expect(
      (await json(apiGenerate, { path: '/api/generate', cookie, body: { prompt: 'hi' } })).status,
    ).toBe(429);
  });
});
