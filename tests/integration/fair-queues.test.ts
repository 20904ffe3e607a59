import type { Job } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { createCourseWithLessons } from '~/models/courses.server';
import { getUserById } from '~/models/users.server';
import { lessonQueue } from '~/queues/lesson.server';
import { quizQueue } from '~/queues/quiz.server';
import { createCourseFromContent } from '~/services/course-generation.server';
import { sweepLostWork } from '~/services/work-sweeper.server';
import { database, tables } from '~/utils/database.server';
import { newId } from '~/utils/ids.server';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/**
 * New work does not wait behind a backlog (ADR 38). Quizzes run two at a time, so they are where
 * a backlog shows first: another member's owed quizzes, swept in after a restore or enqueued by
 * that member a moment before, must not hold up a member's fresh course. Each quiz's AI call takes
 * 150 ms here; what is measured is the order they finish in.
 */
const running: WorkerProcess[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((worker) => stopWorker(worker, 'SIGTERM')));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function member() {
  const id = newId();
  await database()
    .insert(tables.users)
    .values({ id, email: `${id}@test`, name: 'Member', passwordHash: 'x' });
  return (await getUserById(id))!;
}

/** `count` courses of `topics` for the member, one after the other; their ids. */
async function storedCourses(
  userId: string,
  count: number,
  topics: Parameters<typeof createCourseWithLessons>[0]['topics'],
) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await createCourseWithLessons({
      userId,
      mainTopic: 'Knots',
      type: 'text',
      topics,
    });
    ids.push(created.course.id);
  }
  return ids;
}

/** Four topics of one written lesson each: a course that owes four topic quizzes and an exam. */
const TOPICS = Array.from({ length: 4 }, (_, i) => ({
  title: `Topic ${i + 1}`,
  lessons: [{ title: `Lesson ${i + 1}`, theory: `<p>Lesson ${i + 1}</p>` }],
}));
const QUIZZES_PER_COURSE = TOPICS.length + 1;

/** A member's course as Generate Course or the API makes it: its quizzes enqueued at once. */
async function freshCourse(user: Awaited<ReturnType<typeof member>>) {
  const created = await createCourseFromContent(user, {
    mainTopic: 'Sailing',
    type: 'text',
    topics: TOPICS,
  });
  if (!created.ok) throw new Error(created.message);
  return created.value;
}

/** Every quiz job of these courses, once all of `awaited`'s have finished. */
async function finishedQuizJobs(awaited: string, timeoutMs = 60_000): Promise<Job[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await quizQueue.queue().getJobs(['completed']);
    if (jobs.filter((job) => job.data.courseId === awaited).length === QUIZZES_PER_COURSE)
      return jobs;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}

/** How many of the backlog's quizzes had finished when the fresh course's last one did. */
function backlogDoneBeforeFresh(jobs: Job[], freshCourseId: string, backlogCourses: string[]) {
  const freshDoneAt = Math.max(
    ...jobs.filter((job) => job.data.courseId === freshCourseId).map((job) => job.finishedOn!),
  );
  return jobs.filter(
    (job) => backlogCourses.includes(job.data.courseId) && job.finishedOn! < freshDoneAt,
  ).length;
}

function startWorker() {
  const worker = spawnWorker({ MOCK_AI_LATENCY_MS: '150' });
  running.push(worker);
  return worker;
}

describe("a member's new course", () => {
  it('does not wait behind quizzes the sweep gives jobs again after a restore', async () => {
    // A restored backup: courses whose quizzes were never written, and no jobs for them.
    const restored = await member();
    const backlog = await storedCourses(restored.id, 8, TOPICS);
    const swept = await sweepLostWork();
    expect(swept.quizzes).toBe(backlog.length * QUIZZES_PER_COURSE);
    const fresh = await freshCourse(await member());

    await startWorker().ready;
    const jobs = await finishedQuizJobs(fresh);
    const before = backlogDoneBeforeFresh(jobs, fresh, backlog);
    console.info(`restored quizzes finished before the new course's: ${before} of 40`);
    // On main, oldest first: all 40. Now the new course's five go first (two run at a time).
    expect(before).toBeLessThanOrEqual(2);
  });

  it("takes turns with another member's quizzes enqueued a moment before", async () => {
    const busy = await member();
    const backlog: string[] = [];
    for (let i = 0; i < 8; i += 1) backlog.push(await freshCourse(busy));
    const fresh = await freshCourse(await member());

    await startWorker().ready;
    const jobs = await finishedQuizJobs(fresh);
    const before = backlogDoneBeforeFresh(jobs, fresh, backlog);
    console.info(`the busy member's quizzes finished before the other's course: ${before} of 40`);
    // On main, oldest first: all 40. Now the two members alternate: about 5 of the 40.
    expect(before).toBeLessThanOrEqual(QUIZZES_PER_COURSE + 2);
  });

  it("has its lessons queued before a restored backlog's, whatever their place in the course", async () => {
    const restored = await member();
    const unwritten = TOPICS.map((topic) => ({
      title: topic.title,
      lessons: [{ title: 'A' }, { title: 'B' }, { title: 'C' }],
    }));
    const backlog = new Set(await storedCourses(restored.id, 3, unwritten));
    await sweepLostWork();
    const other = await member();
    other.plan = 'monthly'; // room for twelve AI lessons
    const created = await createCourseFromContent(other, {
      mainTopic: 'Sailing',
      type: 'text',
      topics: unwritten,
    });
    if (!created.ok) throw new Error(created.message);

    // The order the (idle) worker would take them in: BullMQ's prioritized set, lowest first.
    const queued = await lessonQueue.queue().getJobs(['prioritized'], 0, -1, true);
    const order = queued.map((job) => (backlog.has(job.data.courseId) ? 'restored' : 'fresh'));
    expect(order.filter((each) => each === 'restored')).toHaveLength(36);
    // On main the lessons of both sat at 10 + their place in the course, interleaved.
    expect(order.slice(0, 12)).toEqual(Array(12).fill('fresh'));
  });
});
