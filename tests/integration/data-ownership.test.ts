import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getCourseForUser } from '~/models/courses.server';
import { listLessonsOfCourse } from '~/models/lessons.server';
import { getOutline } from '~/models/outlines.server';
import { createUser, type User } from '~/models/users.server';
import { lessonQueue } from '~/queues/lesson.server';
import { deleteOwnCourse } from '~/services/course-deletion.server';
import {
  createCourseFromContent,
  startCourse,
  startOutline,
} from '~/services/course-generation.server';
import { database, tables } from '~/utils/database.server';
import { startApp, type RunningApp } from '../support/app-process';
import { leftoverRows, tableNames } from '../support/leftover-rows';
import { fillCourse, idsOfCourses } from '../support/member-data';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
} from '../support/members';
import { appDataLayer } from '../support/app-database';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/**
 * What members own (issue 38): deleting a course takes everything of it, at once, also while
 * its jobs run; the check reads every table of the schema, so a table added later is covered.
 */

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const MATERIAL = Array.from(
  { length: 12 },
  (_, n) => `Tide tables list the height of the sea at port ${n} for every hour of the day.`,
).join('\n\n');

let counter = 0;
function member(): Promise<User> {
  counter += 1;
  return createUser({
    email: `owner-${counter}@example.com`,
    name: 'Owner',
    password: 'long-enough-password',
    plan: 'free',
  });
}

const written = (title: string) => ({ title, theory: `<p>${title} explained.</p>` });

describe('deleting a course while its lessons are being written', () => {
  let worker: WorkerProcess | undefined;
  afterEach(async () => {
    if (worker) await stopWorker(worker, 'SIGTERM');
  });

  it('leaves no row of it in any table, writes nothing back, and keeps the other course', async () => {
    // Slow lessons, one at a time: a lesson is being written when the course goes.
    worker = spawnWorker({ MOCK_AI_LATENCY_MS: '1500', LESSON_CONCURRENCY: '1' });
    await worker.ready;
    const owner = await member();
    const kept = await createCourseFromContent(owner, {
      mainTopic: 'Kept course',
      type: 'text',
      topics: [{ title: 'Only topic', lessons: [written('First'), written('Second')] }],
    });
    expect(kept.ok).toBe(true);
    const keptId = kept.ok ? kept.value : '';

    const outline = await startOutline(owner, {
      mainTopic: 'Tides',
      subtopics: ['Tide tables'],
      topicCount: 5,
      type: 'text',
      material: { pasted: MATERIAL },
    });
    if (!outline.ok) throw new Error(outline.message);
    await waitFor(async () =>
      (await getOutline(outline.value.id))?.state === 'done' ? true : undefined,
    );
    const started = await startCourse(owner, outline.value.id);
    if (!started.ok) throw new Error(started.message);
    const courseId = started.value;
    const running = await waitFor(async () =>
      (await listLessonsOfCourse(courseId)).find((lesson) => lesson.state === 'running'),
    );
    await fillCourse(database(), tables, owner.id, courseId);
    const gone = await idsOfCourses(database(), tables, [courseId]);
    expect(gone.ids!.source_documents).toHaveLength(1);
    expect(gone.ids!.outlines).toEqual([outline.value.id]);

    expect(await deleteOwnCourse(owner, courseId)).toEqual({ ok: true, value: undefined });
    expect(await getCourseForUser(courseId, owner.id)).toBeUndefined();
    expect(await deleteOwnCourse(owner, courseId)).toMatchObject({ ok: false, status: 404 });

    // The lesson being written finishes (or fails for good) without writing; the others' jobs
    // were taken out of the queue.
    const runningJob = `lesson-${courseId}-${running.id}`;
    await waitFor(async () => {
      const state = await lessonQueue.queue().getJobState(runningJob);
      return state === 'active' ? undefined : state;
    });
    const others = gone.columns.lesson_id!.filter((id) => id !== running.id);
    for (const lessonId of others)
      expect(await lessonQueue.findJob({ lessonId: Number(lessonId), courseId })).toBeUndefined();
    // A moment for anything the job might still write after leaving 'active'.
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(tableNames(tables)).toEqual(expect.arrayContaining(['course_shares', 'lesson_notes']));
    expect(await leftoverRows(database(), tables, gone)).toEqual([]);
    expect(worker.output()).not.toMatch(/FOREIGN KEY|violates foreign key/);

    const stays = await getCourseForUser(keptId, owner.id);
    expect(stays?.mainTopic).toBe('Kept course');
    expect(await listLessonsOfCourse(keptId)).toHaveLength(2);
  });
});

describe('deleting a course over HTTP', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp();
  }, 180_000);
  afterAll(async () => {
    await closeAppDatabases();
    await app?.stop();
  });

  async function signedIn() {
    const created = await createMember(app);
    return { ...created, cookie: `__session=${await sessionCookieValue(app, created)}` };
  }

  function request(path: string, cookie: string, init: RequestInit = {}) {
    return fetch(`${app.baseURL}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { Cookie: cookie, Origin: app.baseURL, ...(init.headers ?? {}) },
    });
  }

  async function createCourse(cookie: string, mainTopic: string) {
    const response = await request('/api/course', cookie, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        mainTopic,
        type: 'text',
        content: {
          x: [{ title: 'Topic', subtopics: [{ ...written('Lesson'), image: '', youtube: '' }] }],
        },
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { courseId: string }).courseId;
  }

  const deleteByApi = (cookie: string, body: unknown) =>
    request('/api/deletecourse', cookie, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('asks first, then deletes from the page: the course answers 404 everywhere at once', async () => {
    const owner = await signedIn();
    const gone = await createCourse(owner.cookie, 'Going course');
    const kept = await createCourse(owner.cookie, 'Staying course');
    const layer = appDataLayer(app);
    await fillCourse(appDatabase(app), layer.tables, owner.id, gone);
    const ids = await idsOfCourses(appDatabase(app), layer.tables, [gone]);

    const course = await (await request(`/course/${gone}`, owner.cookie)).text();
    expect(course).toContain(`href="/course/${gone}/delete"`);
    const home = await (await request('/home', owner.cookie)).text();
    expect(home).toContain(`href="/course/${gone}/delete"`);
    const confirm = await request(`/course/${gone}/delete`, owner.cookie);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('This cannot be undone');

    // Someone else's course is not theirs to delete: the same 404 as a course that never was.
    const stranger = await signedIn();
    expect((await request(`/course/${gone}/delete`, stranger.cookie)).status).toBe(404);
    expect(
      (await request(`/course/${gone}/delete`, stranger.cookie, { method: 'POST' })).status,
    ).toBe(404);
    expect((await deleteByApi(stranger.cookie, { courseId: gone })).status).toBe(404);

    const deleted = await request(`/course/${gone}/delete`, owner.cookie, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('location')).toBe('/home');

    for (const path of [
      `/course/${gone}`,
      `/course/${gone}/delete`,
      `/course/${gone}/notes`,
      `/course/${gone}/export.md`,
      `/share/share-${gone}`,
      `/verify/cert-${gone}`,
    ])
      expect((await request(path, owner.cookie)).status, path).toBe(404);
    expect((await request(`/api/course?courseId=${gone}`, owner.cookie)).status).toBe(404);
    expect(await leftoverRows(appDatabase(app), layer.tables, ids)).toEqual([]);

    const after = await (await request('/home', owner.cookie)).text();
    expect(after).toContain('STAYING COURSE');
    expect(after).not.toContain('GOING COURSE');
    expect((await request(`/course/${kept}`, owner.cookie)).status).toBe(200);
  });

  it('deletes through POST /api/deletecourse', async () => {
    const owner = await signedIn();
    const courseId = await createCourse(owner.cookie, 'API course');
    const missing = await deleteByApi(owner.cookie, {});
    expect(missing.status).toBe(400);
    // The contract's choice (ADR 0054): a POST in the spec's style; a DELETE deletes nothing.
    const restStyle = await request(`/api/course/${courseId}`, owner.cookie, { method: 'DELETE' });
    expect(restStyle.status).toBe(404);
    const wrongMethod = await request('/api/deletecourse', owner.cookie, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('Allow')).toBe('POST');
    expect((await request(`/api/course?courseId=${courseId}`, owner.cookie)).status).toBe(200);

    const deleted = await deleteByApi(owner.cookie, { courseId });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, message: 'Course deleted' });
    const again = await deleteByApi(owner.cookie, { courseId });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ success: false, message: 'Course not found' });
    const rows = await appDatabase(app)
      .select()
      .from(appDataLayer(app).tables.courses)
      .where(eq(appDataLayer(app).tables.courses.id, courseId));
    expect(rows).toEqual([]);
  });
});
