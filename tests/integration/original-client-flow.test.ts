import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import { appDatabase, closeAppDatabases } from '../support/members';
import { tables } from '~/utils/database.server';

/**
 * The original product's React client played against CourseGen over HTTP: its own request
 * bodies (spec section 7, "The calls it makes"), in the order its pages send them, from sign-up
 * to the certificate. The one thing added is what an API client of another origin needs here:
 * a personal API token as `Authorization: Bearer`, made on the profile page. Each step asserts
 * only what the client reads from the answer (success flags, messages, ids, `completed`).
 */

let app: RunningApp;

interface Answer {
  status: number;
  // The client reads into the JSON it expects; so does this test.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  setCookies: string[];
}

async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
  token?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${app.baseURL}${path}`, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: response.headers.get('Content-Type')?.startsWith('application/json')
      ? (JSON.parse(text) as unknown)
      : text,
    setCookies: response.headers.getSetCookie(),
  };
}

/** A call the client treats as done: 200 and the answer's body. */
async function ok(
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
  token?: string,
) {
  const answer = await call(method, path, body, token);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

/** The added step: a personal API token, made on the profile page with the sign-in's session. */
async function makeToken(signIn: Answer): Promise<string> {
  const cookie = signIn.setCookies
    .find((setCookie) => setCookie.startsWith('__session='))!
    .split(';')[0]!;
  const response = await fetch(`${app.baseURL}/profile`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'create-token', tokenName: 'original client' }),
  });
  expect(response.status).toBe(200);
  const token = /(cgk_[A-Za-z0-9_-]{40,})/.exec(await response.text())?.[1];
  expect(token, 'the profile page shows the new token once').toBeDefined();
  return token!;
}

/** The original client's outline prompt (its Create page), for `topics` topics on `main`. */
function outlinePrompt(main: string, topics: number, subtopics: string) {
  const key = main.toLowerCase();
  return (
    `Generate a list of Strict ${topics} topics and any number sub topic for each topic for main title ${key}, ` +
    `everything in single line. Those ${topics} topics should Strictly include these topics :- ${subtopics}. ` +
    `Strictly Keep theory, youtube, image field empty. Generate in the form of JSON in this format {\n` +
    `  "${key}": [\n    {\n      "title": "Topic Title",\n      "subtopics": [\n        {\n` +
    `          "title": "Sub Topic Title",\n          "theory": "",\n          "youtube": "",\n` +
    `          "image": "",\n          "done": false\n        }\n      ]\n    }\n  ]\n}` +
    ` strictly in JSON format`
  );
}

type Lesson = { title: string; theory: string; youtube: string; image: string; done: boolean };
type Content = Record<string, { title: string; subtopics: Lesson[] }[]>;

/** The emails in the running app's outbox to `to`. */
function outboxFor(to: string) {
  const { outboxEmails } = tables;
  return appDatabase(app).select().from(outboxEmails).where(eq(outboxEmails.to, to));
}

beforeAll(async () => {
  // Room in the hourly AI allowance for the outline and every lesson's text and photo.
  app = await startApp({ AI_REQUESTS_PER_HOUR: '50' });
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

describe("the original client's course flow, with a bearer token added", () => {
  it('signs up, signs in, makes, writes, finishes and certifies a course', async () => {
    const email = `original-${Date.now()}@example.com`;
    const password = 'correct-horse-battery';
    const mName = 'Ada Original';

    // Sign-up page: POST /api/signup {email, mName, password, type}; the client reads success,
    // message (its toast) and userId.
    const signedUp = await ok('POST', '/api/signup', { email, mName, password, type: 'free' });
    expect(signedUp).toEqual({
      success: true,
      message: 'Account created successfully',
      userId: expect.any(String),
    });
    const uid = signedUp.userId as string;

    // Sign-in page, wrong password: success false, and the server's message is what the toast
    // shows (spec section 8, "When success is false, the server's message is shown").
    const refused = await call('POST', '/api/signin', { email, password: 'wrong-horse-battery' });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, message: 'Invalid email or password' });

    // Sign-in page, right password: the client keeps userData (email, mName, _id, type).
    const signIn = await call('POST', '/api/signin', { email, password });
    expect(signIn.status).toBe(200);
    expect(signIn.body).toEqual({
      success: true,
      message: 'SignIn successful',
      userData: { email, mName, _id: uid, type: 'free' },
    });
    const token = await makeToken(signIn);

    // Without the token the client's calls are refused; with it they go through.
    expect((await call('GET', `/api/courses?userId=${uid}`)).status).toBe(401);
    expect(await ok('GET', `/api/courses?userId=${uid}`, undefined, token)).toEqual([]);

    // Create page: POST /api/prompt {prompt}; the client parses generatedText and reads the
    // outline under the main title, lower-cased, as its prompt's format names it.
    const mainTopic = 'Rust';
    const key = mainTopic.toLowerCase();
    const prompted = await ok(
      'POST',
      '/api/prompt',
      { prompt: outlinePrompt(mainTopic, 2, 'Ownership') },
      token,
    );
    const outline = JSON.parse(prompted.generatedText as string) as Content;
    const topics = outline[key]!;
    expect(topics, JSON.stringify(outline)).toHaveLength(2);
    // The topic the client asked for comes first, as its prompt says it strictly must be there.
    expect(topics[0]!.title).toBe('Ownership');
    for (const topic of topics) {
      expect(topic.title).toMatch(/\S/);
      expect(topic.subtopics.length).toBeGreaterThan(0);
      for (const lesson of topic.subtopics)
        expect(lesson).toEqual({
          title: expect.stringMatching(/\S/),
          theory: '',
          youtube: '',
          image: '',
          done: false,
        });
    }

    // Each lesson of a "text & image course": POST /api/image {prompt} for its photo and
    // POST /api/generate {prompt} for its text, with the client's own prompts.
    for (const topic of topics)
      for (const lesson of topic.subtopics) {
        const image = await ok(
          'POST',
          '/api/image',
          { prompt: `Example of ${lesson.title} in ${mainTopic}` },
          token,
        );
        expect(image.url).toMatch(/^https?:\/\/\S+$/);
        const generated = await ok(
          'POST',
          '/api/generate',
          {
            prompt:
              `Strictly in English, Explain me about this subtopic of ${mainTopic} with examples :- ` +
              `${lesson.title}. Please Strictly Don't Give Additional Resources And Images.`,
          },
          token,
        );
        expect(generated.text).toMatch(/^<(p|h\d|ul|ol)>/);
        lesson.image = image.url as string;
        lesson.theory = generated.text as string;
      }

    // Save: POST /api/course {user, content, type, mainTopic}; the client reads success,
    // courseId and completed to open the course page.
    const created = await ok(
      'POST',
      '/api/course',
      {
        user: uid,
        content: JSON.stringify({ [key]: topics }),
        type: 'text & image course',
        mainTopic,
      },
      token,
    );
    expect(created).toEqual({
      success: true,
      message: expect.any(String),
      courseId: expect.any(String),
      completed: false,
    });
    const courseId = created.courseId as string;

    // Course page: each lesson marked done and saved with POST /api/update {content, courseId}.
    for (const topic of topics)
      for (const lesson of topic.subtopics) {
        lesson.done = true;
        const updated = await ok(
          'POST',
          '/api/update',
          { content: JSON.stringify({ [key]: topics }), courseId },
          token,
        );
        expect(updated.success).toBe(true);
      }

    // Finish: POST /api/finish {courseId}; the client reads success.
    expect(await ok('POST', '/api/finish', { courseId }, token)).toMatchObject({ success: true });

    // My courses: GET /api/courses?userId=; the course is listed, completed, with its content.
    const courses = (await ok('GET', `/api/courses?userId=${uid}`, undefined, token)) as Record<
      string,
      unknown
    >[];
    expect(courses).toHaveLength(1);
    expect(courses[0]).toMatchObject({
      _id: courseId,
      user: uid,
      mainTopic,
      completed: true,
      end: expect.any(String),
      photo: topics[0]!.subtopics[0]!.image,
    });
    const listed = JSON.parse(courses[0]!.content as string) as Content;
    expect(listed[key]!.flatMap((topic) => topic.subtopics).every((lesson) => lesson.done)).toBe(
      true,
    );

    // Certificate page: POST /api/sendcertificate {html, email}. As documented, the server
    // renders the certificate itself and sends it to the caller's own address: the client's
    // html and email are ignored.
    const sent = await ok(
      'POST',
      '/api/sendcertificate',
      { html: '<p>Click <a href="https://evil.example">here</a></p>', email: 'other@example.com' },
      token,
    );
    expect(sent).toEqual({ success: true, message: 'Certificate sent to your email' });
    expect(await outboxFor('other@example.com')).toHaveLength(0);
    let certificates: Awaited<ReturnType<typeof outboxFor>> = [];
    // Two: the one finishing the course sends, and the one asked for here.
    for (let tries = 0; certificates.length < 2 && tries < 100; tries += 1) {
      certificates = (await outboxFor(email)).filter((mail) =>
        mail.attachments.some((attachment) => attachment.filename === 'certificate.png'),
      );
      if (certificates.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(certificates).toHaveLength(2);
    expect(certificates.every((mail) => !mail.html?.includes('evil.example'))).toBe(true);
  });
});
