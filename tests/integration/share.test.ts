import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
} from '../support/members';
import { tables } from '~/utils/database.server';

/**
 * Shared links over real HTTP through the production server (ADR 0021): what a stranger sees,
 * what the page must never show, how it caches, copying under the plan rule, revoking.
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ JOB_BACKOFF_BASE_MS: '100' });
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

// The running app's own database (tests/support/members.ts), queried through `tables`.
const appDb = () => appDatabase(app);

async function member(plan: 'free' | 'monthly' = 'free', name = 'Test Member') {
  const created = await createMember(app, { plan, name });
  return { ...created, cookie: `__session=${await sessionCookieValue(app, created)}` };
}
type Member = Awaited<ReturnType<typeof member>>;

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${app.baseURL}${path}`, { redirect: 'manual', headers });
}

function post(path: string, cookie: string, fields: Record<string, string>, accept = '*/*') {
  return fetch(`${app.baseURL}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      Cookie: cookie,
      Accept: accept,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields),
  });
}

/** A finished course of two topics through the API: theory, an image and a video id given. */
async function createCourse(owner: Member, type: 'text' | 'video' = 'text') {
  const lesson = (title: string, theory: string) => ({
    title,
    theory,
    image: type === 'text' ? `https://images.unsplash.com/photo-${title.length}` : '',
    youtube: type === 'video' ? 'dQw4w9WgXcQ' : '',
  });
  const response = await fetch(`${app.baseURL}/api/course`, {
    method: 'POST',
    headers: { Cookie: owner.cookie, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      mainTopic: 'Tidal Astronomy',
      type,
      content: {
        astronomy: [
          {
            title: 'Moon and Sea',
            subtopics: [
              lesson('Spring Tides', '<p>Sun and Moon pull together.</p>'),
              lesson('Neap Tides', '<p>They pull at right angles.</p>'),
            ],
          },
          {
            title: 'Measuring',
            subtopics: [lesson('Tide Gauges', '<p>A float in a well.</p>')],
          },
        ],
      },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { courseId: string }).courseId;
}

async function share(owner: Member, courseId: string) {
  const response = await post(`/course/${courseId}/share`, owner.cookie, { intent: 'share' });
  expect(response.status).toBe(200);
  const { url } = (await response.json()) as { url: string };
  return new URL(url).pathname;
}

/** Every string in the loader data Remix streams into the page (turbo-stream, one JSON line). */
function pageDataStrings(html: string): string[] {
  const literal = /streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/.exec(html)?.[1];
  expect(literal).toBeDefined();
  const encoded = JSON.parse(literal!) as string;
  return (JSON.parse(encoded.trim()) as unknown[]).filter(
    (value): value is string => typeof value === 'string',
  );
}

async function waitForQuizzes(courseId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const rows = await appDb()
      .select()
      .from(tables.quizzes)
      .where(eq(tables.quizzes.courseId, courseId))
      .orderBy(tables.quizzes.id);
    if (rows.length > 0 && rows.every((quiz) => quiz.questions)) return rows;
    if (Date.now() > deadline) throw new Error(`quizzes not written:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a shared course', () => {
  let owner: Member;
  let courseId: string;
  let link: string;

  beforeAll(async () => {
    owner = await member('monthly', 'Zebulon Quartermaine');
    courseId = await createCourse(owner);
    await waitForQuizzes(courseId);
    // The owner's own progress, which the link must not show and a copy must not take.
    await appDb()
      .update(tables.lessons)
      .set({ done: true })
      .where(eq(tables.lessons.courseId, courseId));
    link = await share(owner, courseId);
  }, 90_000);

  it('is readable by anyone, with link previews, and reveals nothing private', async () => {
    expect(link).toMatch(/^\/share\/[A-Za-z0-9_-]{43}$/);
    const response = await get(link);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const text of ['Tidal Astronomy', 'Spring Tides', 'Neap Tides', 'Tide Gauges'])
      expect(html).toContain(text);
    expect(html).toContain('Sun and Moon pull together.');
    expect(html).toContain('https://images.unsplash.com/photo-12');
    expect(html).toMatch(/<meta property="og:title" content="Tidal Astronomy/);
    expect(html).toContain(`<meta property="og:url" content="${app.baseURL}${link}"`);
    expect(html).toContain('<meta name="robots" content="noindex"');
    expect(html).toContain('Sign up to copy this course');

    const lessonIds = await appDb()
      .select({ id: tables.lessons.id })
      .from(tables.lessons)
      .where(eq(tables.lessons.courseId, courseId));
    const lessonsHtml = html.replace(/<script[\s\S]*?<\/script>/g, '');
    for (const secret of [owner.email, owner.name, owner.id, courseId])
      expect(html).not.toContain(secret);
    // Numbers are everywhere in a page; the ids would appear as lesson or course fields.
    for (const { id } of lessonIds) expect(lessonsHtml).not.toContain(`lesson=${id}`);
    // The page's data for the browser names no id, no progress and no answer of any kind.
    const names = new Set(pageDataStrings(html));
    expect(names.has('Tide Gauges')).toBe(true);
    for (const key of ['id', 'lessonId', 'courseId', 'userId', 'email', 'done', 'answer'])
      expect(names.has(key)).toBe(false);
    // Quiz questions and answers stay out of the page.
    const [quiz] = await appDb()
      .select()
      .from(tables.quizzes)
      .where(eq(tables.quizzes.courseId, courseId))
      .orderBy(tables.quizzes.id);
    expect(html).not.toContain(quiz!.questions![0]!.question);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('is cacheable for visitors and revalidates to a 304 until the course changes', async () => {
    const first = await get(link);
    expect(first.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=60, must-revalidate',
    );
    expect(first.headers.get('vary')).toMatch(/Cookie/);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);

    const again = await get(link, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    // A signed-in reader's page names them: it is theirs alone, with its own ETag.
    const reader = await member();
    const signedIn = await get(link, { Cookie: reader.cookie });
    expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');
    expect(signedIn.headers.get('etag')).not.toBe(etag);
    expect(await signedIn.text()).toContain('Copy to my courses');

    await appDb()
      .update(tables.lessons)
      .set({ title: 'Spring Tides Revised' })
      .where(eq(tables.lessons.title, 'Spring Tides'));
    const changed = await get(link, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('Spring Tides Revised');
  });

  it('copies into a member’s own courses: their own progress, no AI, the quizzes as written', async () => {
    const reader = await member();
    const response = await post(link, reader.cookie, {}, 'text/html');
    expect(response.status).toBe(303);
    const copyId = response.headers.get('location')!.split('/').pop()!;
    expect(copyId).not.toBe(courseId);

    const [copy] = await appDb().select().from(tables.courses).where(eq(tables.courses.id, copyId));
    expect(copy!.userId).toBe(reader.id);
    expect(copy!.mainTopic).toBe('Tidal Astronomy');
    const copied = await appDb()
      .select()
      .from(tables.lessons)
      .where(eq(tables.lessons.courseId, copyId));
    expect(copied).toHaveLength(3);
    // Written already (no job, so no AI call), and nothing studied yet.
    expect(copied.every((lesson) => lesson.state === 'done' && lesson.mediaState === 'done')).toBe(
      true,
    );
    expect(copied.every((lesson) => !lesson.done)).toBe(true);
    expect(copied.map((lesson) => lesson.theory)).toContain('<p>They pull at right angles.</p>');
    const copiedQuizzes = await appDb()
      .select()
      .from(tables.quizzes)
      .where(eq(tables.quizzes.courseId, copyId))
      .orderBy(tables.quizzes.id);
    const sourceQuizzes = await appDb()
      .select()
      .from(tables.quizzes)
      .where(eq(tables.quizzes.courseId, courseId))
      .orderBy(tables.quizzes.id);
    expect(copiedQuizzes.map((quiz) => quiz.questions)).toEqual(
      sourceQuizzes.map((quiz) => quiz.questions),
    );

    const view = await get(`/course/${copyId}`, { Cookie: reader.cookie });
    expect(view.status).toBe(200);
    // The original stays the owner's alone.
    expect((await get(`/course/${courseId}`, { Cookie: reader.cookie })).status).toBe(404);
  });

  it('sends a visitor who wants a copy to sign in first', async () => {
    const response = await fetch(`${app.baseURL}${link}`, { method: 'POST', redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toContain('/signin?redirectTo=');
  });

  it('stops at once when revoked; sharing again makes a new link and the old one stays dead', async () => {
    const revoked = await post(`/course/${courseId}/share`, owner.cookie, { intent: 'revoke' });
    expect(revoked.status).toBe(200);
    expect((await get(link)).status).toBe(404);
    const reader = await member();
    const copyRefused = await post(link, reader.cookie, {}, 'text/html');
    expect(copyRefused.status).toBe(404);

    const newLink = await share(owner, courseId);
    expect(newLink).not.toBe(link);
    expect((await get(newLink)).status).toBe(200);
    expect((await get(link)).status).toBe(404);
    link = newLink;
  });
});

describe('sharing rules', () => {
  it('refuses a course with lessons still being written (409) and another member’s (404)', async () => {
    const owner = await member();
    const courseId = await createCourse(owner);
    await appDb()
      .update(tables.lessons)
      .set({ state: 'queued', theory: null })
      .where(eq(tables.lessons.title, 'Tide Gauges'));
    const unfinished = (
      await appDb()
        .select({ courseId: tables.lessons.courseId })
        .from(tables.lessons)
        .where(eq(tables.lessons.state, 'queued'))
    ).map((row) => row.courseId);
    expect(unfinished).toContain(courseId);

    const refused = await post(`/course/${courseId}/share`, owner.cookie, { intent: 'share' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /once every lesson is written/,
    );

    const stranger = await member();
    const finished = await createCourse(owner);
    for (const intent of ['share', 'revoke']) {
      const response = await post(`/course/${finished}/share`, stranger.cookie, { intent });
      expect(response.status).toBe(404);
    }
    const bad = await post(`/course/${finished}/share`, owner.cookie, { intent: 'publish' });
    expect(bad.status).toBe(400);
  });

  it('copies only what the member’s plan allows', async () => {
    const paid = await member('monthly');
    const videoCourse = await createCourse(paid, 'video');
    const link = await share(paid, videoCourse);
    const free = await member();
    const before = (
      await appDb().select().from(tables.courses).where(eq(tables.courses.userId, free.id))
    ).length;
    const refused = await post(link, free.cookie, {}, 'text/html');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('For paid members only');
    expect(
      await appDb().select().from(tables.courses).where(eq(tables.courses.userId, free.id)),
    ).toHaveLength(before);
  });

  it('answers 404 for a link that was never made', async () => {
    expect((await get(`/share/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await get('/share/short')).status).toBe(404);
  });
});
