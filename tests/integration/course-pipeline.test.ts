import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { lessonQueue } from '~/queues/lesson.server';
import { courseStatus, deleteCourse, type CourseStatus } from '~/models/courses.server';
import { listLessonsOfCourse, updateLessonsFromClient } from '~/models/lessons.server';
import { getOutline, outlineStatus, UNUSABLE_NOTICE_AFTER } from '~/models/outlines.server';
import { createUser, type User } from '~/models/users.server';
import {
  cancelOutlineOf,
  retitleOutlineOf,
  startCourse,
  startOutline,
} from '~/services/course-generation.server';
import { database, first, tables } from '~/utils/database.server';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/**
 * The pipeline against the real Redis and the real worker process, with the
 * AI mock told (by the worker's environment) to misbehave.
 */
const running: WorkerProcess[] = [];

function startWorker(env: Record<string, string> = {}) {
  // A short lock makes a killed worker's jobs stalled (and retried) quickly;
  // a short backoff keeps retries within the test's time.
  const worker = spawnWorker({ JOB_LOCK_MS: '1500', JOB_BACKOFF_BASE_MS: '100', ...env });
  running.push(worker);
  return worker;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((worker) => stopWorker(worker, 'SIGTERM')));
});

async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function waitForAsync<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let counter = 0;
async function member(plan: User['plan'] = 'free'): Promise<User> {
  counter += 1;
  return createUser({
    email: `pipeline-${counter}@example.com`,
    name: 'Pipeline',
    password: 'long-enough-password',
    plan,
  });
}

/** Outline then course, the way /create and Generate Course do it. */
async function generateCourse(user: User, subtopics = ['Closures']) {
  const started = await startOutline(user, {
    mainTopic: 'JavaScript',
    subtopics,
    topicCount: 5,
    type: 'text',
  });
  if (!started.ok) throw new Error(started.message);
  await waitFor(async () =>
    (await getOutline(started.value.id))?.state === 'done' ? true : undefined,
  );
  const course = await startCourse(user, started.value.id);
  if (!course.ok) throw new Error(course.message);
  return course.value;
}

const allReady = (status: CourseStatus) => (status.generating ? undefined : status);

describe('course generation with the real worker', () => {
  it('completes the course when the AI fails the first 3 calls of a lesson', async () => {
    const worker = startWorker({
      MOCK_AI_FAIL_FIRST: '3',
      MOCK_AI_FAIL_STATUS: '529',
      MOCK_AI_FAIL_MATCH: 'Sub-topic: Closures by Example',
    });
    await worker.ready;
    const courseId = await generateCourse(await member());

    const seen = new Set<string>();
    const status = await waitFor(async () => {
      const current = await courseStatus(courseId);
      const flaky = (await listLessonsOfCourse(courseId)).find(
        (l) => l.title === 'Closures by Example',
      )!;
      seen.add(`${flaky.state}:${flaky.attempts}`);
      return allReady(current);
    });

    expect(status.ready).toBe(10);
    const rows = await listLessonsOfCourse(courseId);
    const flaky = rows.find((lesson) => lesson.title === 'Closures by Example')!;
    expect(flaky.attempts).toBe(3);
    expect(flaky.theory).toContain('Closures by Example');
    expect([...seen]).toEqual(expect.arrayContaining(['retrying:1', 'retrying:3']));
    for (const lesson of rows.filter((l) => l.id !== flaky.id)) expect(lesson.attempts).toBe(0);
    expect(worker.output()).toContain('OverloadedError: 529');
  });

  it('retries a malformed outline and never saves it', async () => {
    const worker = startWorker({ MOCK_AI_MALFORMED: '3' });
    await worker.ready;
    const user = await member();
    const started = await startOutline(user, {
      mainTopic: 'Rust',
      subtopics: ['Ownership'],
      topicCount: 5,
      type: 'text',
    });
    if (!started.ok) throw new Error(started.message);

    const states = new Set<string>();
    const outline = await waitFor(async () => {
      const row = (await getOutline(started.value.id))!;
      states.add(row.state);
      // Until the outline is accepted, nothing of the malformed answers is stored.
      if (row.state !== 'done') expect(row.result).toBeNull();
      return row.state === 'done' ? row : undefined;
    });

    expect(states).toContain('retrying');
    expect(outline.attempts).toBe(3);
    expect(outline.result).toHaveLength(5);
    expect(outline.result![0]).toMatchObject({ title: 'Ownership' });
    expect(worker.output()).toContain('AiOutputError');
  });

  it('keeps retrying an outline the AI always botches, storing nothing', async () => {
    const worker = startWorker({ MOCK_AI_MALFORMED: 'always' });
    await worker.ready;
    const started = await startOutline(await member(), {
      mainTopic: 'Go',
      subtopics: ['Goroutines'],
      topicCount: 5,
      type: 'text',
    });
    if (!started.ok) throw new Error(started.message);
    const row = await waitFor(async () => {
      const current = (await getOutline(started.value.id))!;
      return current.attempts >= 4 ? current : undefined;
    });
    expect(row.state).toBe('retrying');
    expect(row.result).toBeNull();
    expect(row.lastError).toMatch(/AiOutputError/);
    const { outlines } = tables;
    expect(
      (await first(database().select().from(outlines).where(eq(outlines.id, started.value.id))))
        ?.courseId,
    ).toBeNull();
  });

  it('tells the member plainly when the answers keep being unusable, and a cancel stops the calls', async () => {
    const worker = startWorker({ MOCK_AI_MALFORMED: 'always' });
    await worker.ready;
    const user = await member();
    const started = await startOutline(user, {
      mainTopic: 'Haskell',
      subtopics: ['Monads'],
      topicCount: 5,
      type: 'text',
    });
    if (!started.ok) throw new Error(started.message);
    const outlineId = started.value.id;
    expect((await outlineStatus((await getOutline(outlineId))!)).unusable).toBe(false);
    const failing = await waitFor(async () => {
      const row = (await getOutline(outlineId))!;
      return row.attempts >= UNUSABLE_NOTICE_AFTER ? row : undefined;
    });
    expect(failing.failureKind).toBe('unusable');
    expect((await outlineStatus(failing)).unusable).toBe(true);

    const cancelled = await cancelOutlineOf(user, outlineId);
    expect(cancelled.ok && cancelled.value.state).toBe('cancelled');
    const triesAt = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.includes('outline.try_failed') && line.includes(outlineId)).length;
    // A try already under way may still end; after it, none starts.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const tries = triesAt(worker.output());
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(triesAt(worker.output())).toBe(tries);
    expect(await getOutline(outlineId)).toMatchObject({ state: 'cancelled', result: null });
    // Someone else's outline cannot be cancelled.
    expect(await cancelOutlineOf(await member(), outlineId)).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it('starts again from the first try when the member changes the title', async () => {
    const worker = startWorker({ MOCK_AI_MALFORMED: String(UNUSABLE_NOTICE_AFTER + 1) });
    await worker.ready;
    const user = await member();
    const started = await startOutline(user, {
      mainTopic: 'Prolog',
      subtopics: ['Unification'],
      topicCount: 5,
      type: 'text',
    });
    if (!started.ok) throw new Error(started.message);
    const outlineId = started.value.id;
    await waitFor(async () =>
      (await outlineStatus((await getOutline(outlineId))!)).unusable ? true : undefined,
    );

    const retitled = await retitleOutlineOf(user, outlineId, 'Logic Programming');
    expect(retitled.ok && retitled.value).toMatchObject({ attempts: 0, state: 'queued' });
    const done = await waitFor(async () => {
      const row = (await getOutline(outlineId))!;
      return row.state === 'done' ? row : undefined;
    });
    expect(done.mainTopic).toBe('Logic Programming');
    expect(done.result).toHaveLength(5);
    expect((await outlineStatus(done)).unusable).toBe(false);
  });

  it('does every lesson exactly once when the worker is killed mid-lesson', async () => {
    const first = startWorker({ MOCK_AI_LATENCY_MS: '2500' });
    await first.ready;
    const user = await member();
    const started = await startOutline(user, {
      mainTopic: 'Python',
      subtopics: ['Generators'],
      topicCount: 5,
      type: 'text',
    });
    if (!started.ok) throw new Error(started.message);
    await waitFor(async () =>
      (await getOutline(started.value.id))?.state === 'done' ? true : undefined,
    );
    const course = await startCourse(user, started.value.id);
    if (!course.ok) throw new Error(course.message);
    const courseId = course.value;

    // Every lesson has started (the AI takes 2.5 s for each) when the worker dies.
    await waitFor(async () =>
      (await listLessonsOfCourse(courseId)).every((lesson) => lesson.state !== 'queued')
        ? true
        : undefined,
    );
    await stopWorker(first, 'SIGKILL');
    expect((await courseStatus(courseId)).ready).toBeLessThan(10);
    // 'exit' can come before the last output is read: wait for the pipes to close too.
    if (first.child.stdout && !first.child.stdout.closed)
      await new Promise((resolve) => first.child.once('close', resolve));

    const second = startWorker();
    await second.ready;
    const status = await waitFor(async () => allReady(await courseStatus(courseId)));
    expect(status.ready).toBe(10);
    // Every 'lesson.stored' line of the second worker is out before its lesson is ready.
    await waitFor(
      () =>
        (first.output() + second.output()).split('"lesson.stored"').length - 1 >= 10
          ? true
          : undefined,
      10_000,
    ).catch(() => undefined);

    const rows = await listLessonsOfCourse(courseId);
    expect(rows).toHaveLength(10);
    const stored = [
      ...(first.output() + second.output()).matchAll(/"event":"lesson.stored"[^\n]*/g),
    ]
      .map((line) => /"lessonId":(\d+)/.exec(line[0])![1])
      .map(Number);
    for (const lesson of rows) {
      expect(lesson.theory).toContain(lesson.title);
      expect(stored.filter((id) => id === lesson.id)).toHaveLength(1);
    }
  });

  it('keeps the content of 10 lesson jobs of one course finishing in parallel', async () => {
    const worker = startWorker({ MOCK_AI_LATENCY_MS: '1500' });
    await worker.ready;
    const courseId = await generateCourse(await member());

    // While the jobs run, the learner marks every lesson done: a different column of the same rows.
    await waitFor(async () =>
      (await listLessonsOfCourse(courseId)).some((lesson) => lesson.state === 'running')
        ? true
        : undefined,
    );
    for (const lesson of await listLessonsOfCourse(courseId))
      await updateLessonsFromClient([{ lessonId: lesson.id, done: true }]);

    await waitFor(async () => allReady(await courseStatus(courseId)));
    const rows = await listLessonsOfCourse(courseId);
    expect(rows).toHaveLength(10);
    const finishedAt = rows.map((lesson) => lesson.generatedAt!.getTime());
    // One after the other they would take 10 x 1.5 s; in parallel they finish together.
    expect(Math.max(...finishedAt) - Math.min(...finishedAt)).toBeLessThan(6_000);
    for (const lesson of rows) {
      expect(lesson.theory).toContain(`<strong>${lesson.title}</strong>`);
      expect(lesson.imageUrl).toMatch(/^\/images\/demo\/photo-\d\.png$/);
      expect(lesson.done).toBe(true);
      expect(lesson.state).toBe('done');
    }
    const { lessons } = tables;
    expect(
      await database()
        .select({ id: lessons.id })
        .from(lessons)
        .where(eq(lessons.courseId, courseId)),
    ).toHaveLength(10);
  });

  it('fails the jobs of a deleted course for good instead of retrying them', async () => {
    const worker = startWorker({ MOCK_AI_LATENCY_MS: '400', LESSON_CONCURRENCY: '1' });
    await worker.ready;
    const courseId = await generateCourse(await member());
    const ids = (await listLessonsOfCourse(courseId)).map((lesson) => lesson.id);
    await waitFor(async () =>
      (await listLessonsOfCourse(courseId)).some((lesson) => lesson.state === 'done')
        ? true
        : undefined,
    );
    await deleteCourse(courseId);

    const jobs = await Promise.all(
      ids.map((id) => lessonQueue.findJob({ lessonId: id, courseId })),
    );
    const waiting = jobs.filter((job) => job && !job.finishedOn && job.processedOn === undefined);
    expect(waiting.length).toBeGreaterThan(0);
    for (const job of waiting) {
      const finished = await waitForAsync(async () => {
        if ((await lessonQueue.queue().getJobState(job!.id!)) !== 'failed') return undefined;
        // Read after the state: a job read before it failed carries no failure yet.
        return lessonQueue.queue().getJob(job!.id!);
      });
      expect(finished.failedReason).toMatch(/was deleted/);
      expect(finished.attemptsMade).toBe(1);
    }
  });
});
