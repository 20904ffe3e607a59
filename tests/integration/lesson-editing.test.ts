import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_SIMPLER_START } from '../../mocks/ai-answers';
import { writeKnobs } from '../../mocks/knobs';
import {
  LESSON_BUSY_MESSAGE,
  LESSON_MARKDOWN_TOO_LONG_MESSAGE,
  MAX_LESSON_MARKDOWN_CHARS,
} from '~/domain/lesson-editing';
import { tables } from '~/utils/database.server';
import { startApp, type RunningApp } from '../support/app-process';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
} from '../support/members';

/**
 * Editing a written lesson and its history (issue 39, ADR 0059) over real HTTP, through the
 * production server and its worker in demo mode (the AI mock answers regenerations).
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ JOB_BACKOFF_BASE_MS: '100', SWEEP_INTERVAL_MS: '1000' });
}, 180_000);

afterEach(() => {
  fs.rmSync(path.join(app.dataDir, 'mock-knobs.json'), { force: true });
});

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

async function member(plan: 'free' | 'monthly' = 'free') {
  const created = await createMember(app, { plan });
  return { ...created, cookie: `__session=${await sessionCookieValue(app, created)}` };
}

function request(pathname: string, cookie: string, init: RequestInit = {}) {
  return fetch(`${app.baseURL}${pathname}`, {
    redirect: 'manual',
    ...init,
    headers: { Cookie: cookie, ...(init.headers ?? {}) },
  });
}

const postJson = (pathname: string, cookie: string, body: unknown) =>
  request(pathname, cookie, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const postForm = (pathname: string, cookie: string, fields: Record<string, string>) =>
  request(pathname, cookie, { method: 'POST', body: new URLSearchParams(fields) });

async function createCourse(cookie: string) {
  const response = await postJson('/api/course', cookie, {
    mainTopic: 'Gardening',
    type: 'text',
    content: {
      gardening: [
        {
          title: 'Soil',
          subtopics: [
            { title: 'Compost', theory: '<p>Compost feeds the soil.</p>' },
            { title: 'Mulch', theory: '<p>Mulch keeps water in.</p>' },
          ],
        },
      ],
    },
  });
  expect(response.status).toBe(200);
  const courseId = ((await response.json()) as { courseId: string }).courseId;
  const rows = await appDatabase(app)
    .select({ id: tables.lessons.id })
    .from(tables.lessons)
    .where(eq(tables.lessons.courseId, courseId))
    .orderBy(tables.lessons.ordinal);
  return { courseId, lessonIds: rows.map((row) => row.id) };
}

interface Version {
  id: number;
  kind: string;
  instruction: string;
  title: string;
  current: boolean;
}
async function versionsOf(lessonId: number, cookie: string) {
  const response = await request(`/api/lesson/${lessonId}/versions`, cookie);
  expect(response.status).toBe(200);
  return ((await response.json()) as { versions: Version[] }).versions;
}

async function waitForRegeneration(lessonId: number, cookie: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await (await request(`/regenerate/${lessonId}`, cookie)).json()) as {
      state: string;
    };
    if (status.state === 'done') return;
    if (Date.now() > deadline) throw new Error(`not regenerated:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('editing a written lesson', () => {
  it('saves a form post (no JavaScript) and shows the edit on the course page and in the exports', async () => {
    const owner = await member('monthly');
    const { courseId, lessonIds } = await createCourse(owner.cookie);
    const lessonId = lessonIds[0]!;

    const editor = await request(`/lesson/${lessonId}/edit`, owner.cookie);
    expect(editor.status).toBe(200);
    expect(await editor.text()).toContain('Compost feeds the soil.');

    const preview = await postForm(`/lesson/${lessonId}/edit`, owner.cookie, {
      intent: 'preview',
      title: 'Compost',
      markdown: 'Some **bold** words <script>alert(1)</script>',
    });
    const previewPage = await preview.text();
    expect(previewPage).toContain('<strong>bold</strong>');
    expect(previewPage).not.toContain('<script>alert(1)');

    const saved = await postForm(`/lesson/${lessonId}/edit`, owner.cookie, {
      intent: 'save',
      title: 'Compost, edited',
      markdown: 'Compost feeds the soil.\n\nWorms love it too. <img src=x onerror=alert(1)>',
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe(`/course/${courseId}?lesson=${lessonId}`);
    const page = await (
      await request(`/course/${courseId}?lesson=${lessonId}`, owner.cookie)
    ).text();
    expect(page).toContain('Compost, edited');
    expect(page).toContain('Worms love it too.');
    expect(page).not.toContain('onerror');

    // The exports carry the current version: the Markdown file and the SCORM package's pages.
    const markdown = await (await request(`/course/${courseId}/export.md`, owner.cookie)).text();
    expect(markdown).toContain('Compost, edited');
    expect(markdown).toContain('Worms love it too.');
    // (The package waits for the course's quizzes, which the worker writes meanwhile: 409 till then.)
    let scorm = await request(`/course/${courseId}/export.scorm.zip`, owner.cookie);
    for (let tries = 0; scorm.status === 409 && tries < 60; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      scorm = await request(`/course/${courseId}/export.scorm.zip`, owner.cookie);
    }
    expect(scorm.status).toBe(200);
    const pages = Object.entries(unzipSync(new Uint8Array(await scorm.arrayBuffer())))
      .filter(([name]) => name.endsWith('.html') || name.endsWith('.js') || name.endsWith('.json'))
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    expect(pages).toContain('Worms love it too.');

    // The generated text and the edit are both kept, newest first.
    const versions = await versionsOf(lessonId, owner.cookie);
    expect(versions.map((v) => v.kind)).toEqual(['edited', 'generated']);
    expect(versions[0]).toMatchObject({ current: true, title: 'Compost, edited' });

    // Restoring the generated version makes a new version with the original text.
    const restored = await postJson(`/api/lesson/${lessonId}/versions`, owner.cookie, {
      versionId: versions[1]!.id,
    });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({
      lesson: { title: 'Compost', html: '<p>Compost feeds the soil.</p>' },
    });
    expect((await versionsOf(lessonId, owner.cookie)).map((v) => v.kind)).toEqual([
      'restored',
      'edited',
      'generated',
    ]);
  }, 60_000);

  it('refuses an empty title, too long a text (413) and keeps the lesson', async () => {
    const owner = await member();
    const { lessonIds } = await createCourse(owner.cookie);
    const lessonId = lessonIds[1]!;
    const noTitle = await postJson(`/api/lesson/${lessonId}`, owner.cookie, {
      title: ' ',
      markdown: 'Text',
    });
    expect(noTitle.status).toBe(400);
    const tooLong = await postJson(`/api/lesson/${lessonId}`, owner.cookie, {
      title: 'Mulch',
      markdown: 'a'.repeat(MAX_LESSON_MARKDOWN_CHARS + 1),
    });
    expect(tooLong.status).toBe(413);
    expect(await tooLong.json()).toMatchObject({ message: LESSON_MARKDOWN_TOO_LONG_MESSAGE });
    const lesson = await request(`/api/lesson/${lessonId}`, owner.cookie);
    expect(await lesson.json()).toMatchObject({
      lesson: {
        title: 'Mulch',
        html: '<p>Mulch keeps water in.</p>',
        markdown: 'Mulch keeps water in.',
      },
    });
  });

  it('refuses an edit while a regeneration runs (409), and keeps the edit made before one as a version', async () => {
    const owner = await member();
    const { courseId, lessonIds } = await createCourse(owner.cookie);
    const lessonId = lessonIds[0]!;

    const edited = await postJson(`/api/lesson/${lessonId}`, owner.cookie, {
      title: 'Compost',
      markdown: 'My own words about compost.',
    });
    expect(edited.status).toBe(200);

    writeKnobs(app.dataDir, { MOCK_AI_LATENCY_MS: 1500 });
    const started = await postJson(`/regenerate/${lessonId}`, owner.cookie, {
      intent: 'regenerate',
      instruction: 'simpler',
    });
    expect(started.status).toBe(202);

    const refused = await postJson(`/api/lesson/${lessonId}`, owner.cookie, {
      title: 'Compost',
      markdown: 'An edit made while the AI writes.',
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: LESSON_BUSY_MESSAGE });
    const refusedForm = await postForm(`/lesson/${lessonId}/edit`, owner.cookie, {
      intent: 'save',
      title: 'Compost',
      markdown: 'An edit made while the AI writes.',
    });
    expect(refusedForm.status).toBe(409);
    expect(await refusedForm.text()).toContain(LESSON_BUSY_MESSAGE);
    const editorWhileBusy = await request(`/lesson/${lessonId}/edit`, owner.cookie);
    expect(editorWhileBusy.status).toBe(409);
    expect(await editorWhileBusy.text()).toContain('being written or re-written right now');

    await waitForRegeneration(lessonId, owner.cookie);
    const page = await (
      await request(`/course/${courseId}?lesson=${lessonId}`, owner.cookie)
    ).text();
    expect(page).toContain(MOCK_SIMPLER_START);
    expect(page).not.toContain('An edit made while the AI writes.');

    const versions = await versionsOf(lessonId, owner.cookie);
    expect(versions.map((v) => [v.kind, v.instruction])).toEqual([
      ['regenerated', 'simpler'],
      ['edited', ''],
      ['generated', ''],
    ]);
    // The edit is there to go back to.
    const history = await (
      await request(`/lesson/${lessonId}/history?version=${versions[1]!.id}`, owner.cookie)
    ).text();
    expect(history).toContain('My own words about compost.');
  }, 90_000);

  it("keeps an API client's other text as an edit, and its echo of the same text as nothing new", async () => {
    const owner = await member();
    const { courseId, lessonIds } = await createCourse(owner.cookie);
    const content = (compost: string) =>
      JSON.stringify({
        gardening: [
          {
            title: 'Soil',
            subtopics: [
              { title: 'Compost', theory: compost, done: true },
              { title: 'Mulch', theory: '<p>Mulch keeps water in.</p>' },
            ],
          },
        ],
      });
    const edited = await postJson(`/api/lesson/${lessonIds[0]}`, owner.cookie, {
      title: 'Compost',
      markdown: 'Compost feeds the soil, edited on the page.',
    });
    expect(edited.status).toBe(200);
    // A client that read the course before the edit sends its old text back.
    const stale = await postJson('/api/update', owner.cookie, {
      courseId,
      content: content('<p>Compost feeds the soil.</p>'),
    });
    expect(stale.status).toBe(200);
    const afterStale = await versionsOf(lessonIds[0]!, owner.cookie);
    expect(afterStale.map((version) => version.kind)).toEqual(['edited', 'edited', 'generated']);
    const history = await (
      await request(`/lesson/${lessonIds[0]}/history?version=${afterStale[1]!.id}`, owner.cookie)
    ).text();
    expect(history).toContain('edited on the page');
    // The same text again, as a client marking lessons done does: no new version.
    await postJson('/api/update', owner.cookie, {
      courseId,
      content: content('<p>Compost feeds the soil.</p>'),
    });
    expect(await versionsOf(lessonIds[0]!, owner.cookie)).toHaveLength(3);
    expect(await versionsOf(lessonIds[1]!, owner.cookie)).toHaveLength(1);
  });

  it('keeps the last 50 versions of a lesson', async () => {
    const owner = await member();
    const { lessonIds } = await createCourse(owner.cookie);
    const lessonId = lessonIds[1]!;
    for (let i = 1; i <= 51; i++) {
      const saved = await postJson(`/api/lesson/${lessonId}`, owner.cookie, {
        title: 'Mulch',
        markdown: `Edit number ${i}.`,
      });
      expect(saved.status).toBe(200);
    }
    const versions = await versionsOf(lessonId, owner.cookie);
    expect(versions).toHaveLength(50);
    expect(versions[0]).toMatchObject({ kind: 'edited', current: true });
    // The generated text and the first edit went first.
    expect(versions.at(-1)!.kind).toBe('edited');
    const oldest = await (
      await request(`/lesson/${lessonId}/history?version=${versions.at(-1)!.id}`, owner.cookie)
    ).text();
    expect(oldest).toContain('Edit number 2.');
  }, 60_000);

  it("answers 404 for another member's lesson, its editor and its versions, and changes nothing", async () => {
    const owner = await member();
    const other = await member();
    const { lessonIds } = await createCourse(owner.cookie);
    const lessonId = lessonIds[0]!;
    for (const pathname of [
      `/api/lesson/${lessonId}`,
      `/api/lesson/${lessonId}/versions`,
      `/lesson/${lessonId}/edit`,
      `/lesson/${lessonId}/history`,
    ])
      expect((await request(pathname, other.cookie)).status, pathname).toBe(404);
    expect(
      (await postJson(`/api/lesson/${lessonId}`, other.cookie, { title: 'X', markdown: 'Y' }))
        .status,
    ).toBe(404);
    expect(
      (
        await postForm(`/lesson/${lessonId}/edit`, other.cookie, {
          intent: 'save',
          title: 'X',
          markdown: 'Y',
        })
      ).status,
    ).toBe(404);
    expect(
      (await postJson(`/api/lesson/${lessonId}/versions`, other.cookie, { versionId: 1 })).status,
    ).toBe(404);
    expect(await (await request(`/api/lesson/${lessonId}`, owner.cookie)).json()).toMatchObject({
      lesson: { title: 'Compost', html: '<p>Compost feeds the soil.</p>' },
    });
  });
});
