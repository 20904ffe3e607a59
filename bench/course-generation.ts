/**
 * Course generation benchmark: `npx tsx bench/course-generation.ts`
 *
 * Starts the real product (web + worker, as `npm start` does) in demo mode with
 * the AI mock answering after a fixed latency, then measures over HTTP what a
 * member waits for, following the status routes exactly as the pages do
 * (long polling: the answer comes as soon as the state changes):
 *
 * 1. /create submitted -> outline visible on /topics, minus the model's time;
 * 2. Generate Course -> course view open with the first lesson;
 * 3. Generate Course -> every lesson of a 10-topic course ready, with the
 *    default concurrency (all lessons at once) and with LESSON_CONCURRENCY=4;
 * 4. opening a lesson that was generated ahead (the page request).
 *
 * Knobs: BENCH_MODEL_MS (default 1000), BENCH_RUNS (default 5).
 * Needs Redis on 127.0.0.1:6379 (or REDIS_URL) and a build (made if stale).
 */
import { startApp, type RunningApp } from '../tests/support/app-process';
import { closeAppDatabases } from '../tests/support/members';
import { memberClient, post, request, type MemberClient } from './lib/member-client';

const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function page(client: MemberClient, path: string) {
  const response = await request(client, path);
  return response.text();
}

/** Follows a status route as the pages do, until `done` accepts the state. */
async function follow<T extends { version: string }>(
  client: MemberClient,
  path: string,
  done: (value: T) => boolean,
): Promise<T> {
  let known = '';
  for (;;) {
    const params = new URLSearchParams({ known, wait: '20000' });
    const value = (await (await request(client, `${path}?${params}`)).json()) as T;
    if (done(value)) return value;
    known = value.version;
  }
}

interface OutlineStatus {
  version: string;
  state: string;
}
interface CourseStatus {
  version: string;
  generating: boolean;
  ready: number;
  total: number;
  lessons: { id: number; state: string }[];
}

function createForm(topic: string, topicCount: number) {
  const form = new URLSearchParams({ topic, topicCount: String(topicCount), type: 'text' });
  form.append('subtopic', 'Foundations');
  return form;
}

/** Outline: submit /create, follow the outline, load /topics. Returns ms and the topics path. */
async function outlineRun(client: MemberClient, topic: string, topicCount: number) {
  const start = performance.now();
  const topicsPath = await post(client, '/create', createForm(topic, topicCount));
  const outlineId = topicsPath.split('/').pop()!;
  await follow<OutlineStatus>(client, `/status/outline/${outlineId}`, (s) => s.state === 'done');
  const html = await page(client, topicsPath);
  if (!html.includes('Generate Course')) throw new Error('the outline page has no outline');
  return { ms: performance.now() - start, topicsPath };
}

/** Generate Course, then the course view with its first lesson; then every lesson. */
async function courseRun(client: MemberClient, topicsPath: string) {
  const start = performance.now();
  const coursePath = await post(client, topicsPath, new URLSearchParams());
  const courseId = coursePath.split('/').pop()!;
  await page(client, coursePath);
  const statusPath = `/status/course/${courseId}`;
  await follow<CourseStatus>(client, statusPath, (s) => s.lessons[0]?.state === 'done');
  const html = await page(client, coursePath);
  if (!html.includes('data-testid="lesson-theory"')) throw new Error('lesson 1 is not shown');
  const firstLessonMs = performance.now() - start;
  const final = await follow<CourseStatus>(client, statusPath, (s) => !s.generating);
  return { firstLessonMs, allMs: performance.now() - start, coursePath, status: final };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
const ms = (value: number) => `${Math.round(value)} ms`;

async function withApp<T>(env: Record<string, string>, run: (app: RunningApp) => Promise<T>) {
  const app = await startApp({
    MOCK_AI_LATENCY_MS: String(MODEL_MS),
    AI_REQUESTS_PER_HOUR: '100000',
    ...env,
  });
  try {
    return await run(app);
  } finally {
    await app.stop();
  }
}

async function main() {
  console.log(
    `Course generation benchmark: mock AI latency ${MODEL_MS} ms per call, ${RUNS} runs each\n`,
  );
  const rows: [string, string, string][] = [];

  await withApp({}, async (app) => {
    const free = await memberClient(app, 'free');
    const paid = await memberClient(app, 'monthly');
    // Warm-up: the first requests load code paths and open connections.
    const warm = await outlineRun(free, 'Warm Up', 5);
    await courseRun(free, warm.topicsPath);

    const outlineOverheads: number[] = [];
    const toCourseView: number[] = [];
    const opens: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const outline = await outlineRun(free, `Topic ${i}`, 5);
      outlineOverheads.push(outline.ms - MODEL_MS);
      const course = await courseRun(free, outline.topicsPath);
      toCourseView.push(course.firstLessonMs);
      for (const lesson of course.status.lessons.slice(1)) {
        const start = performance.now();
        await page(free, `${course.coursePath}?lesson=${lesson.id}`);
        opens.push(performance.now() - start);
      }
    }
    rows.push([
      'Submit /create -> outline visible, minus model time',
      ms(median(outlineOverheads)),
      'under 100 ms',
    ]);
    rows.push([
      'Generate Course -> course view open with lesson 1',
      ms(median(toCourseView)),
      `model time (${MODEL_MS} ms) + overhead`,
    ]);
    rows.push([
      'Open a lesson generated ahead (page request)',
      `${ms(median(opens))} (p95 ${ms(p95(opens))})`,
      'under 100 ms',
    ]);

    const allDefault: number[] = [];
    let lessons = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const outline = await outlineRun(paid, `Big Topic ${i}`, 10);
      const course = await courseRun(paid, outline.topicsPath);
      allDefault.push(course.allMs);
      lessons = course.status.total;
    }
    rows.push([
      `Generate Course -> all ${lessons} lessons of a 10-topic course ready (concurrency: all)`,
      ms(median(allDefault)),
      `~${MODEL_MS} ms x ${lessons} / ${lessons} = ${MODEL_MS} ms`,
    ]);
  });

  const concurrency = 4;
  await withApp({ LESSON_CONCURRENCY: String(concurrency) }, async (app) => {
    const paid = await memberClient(app, 'monthly');
    const warm = await outlineRun(paid, 'Warm Up', 5);
    await courseRun(paid, warm.topicsPath);
    const all: number[] = [];
    let lessons = 0;
    for (let i = 0; i < Math.min(RUNS, 3); i += 1) {
      const outline = await outlineRun(paid, `Big Topic ${i}`, 10);
      const course = await courseRun(paid, outline.topicsPath);
      all.push(course.allMs);
      lessons = course.status.total;
    }
    rows.push([
      `Generate Course -> all ${lessons} lessons ready (LESSON_CONCURRENCY=${concurrency})`,
      ms(median(all)),
      `~${MODEL_MS} ms x ${lessons} / ${concurrency} = ${(MODEL_MS * lessons) / concurrency} ms`,
    ]);
  });

  await closeAppDatabases();
  console.log('| Measure | Median | Target |');
  console.log('|---|---|---|');
  for (const [measure, value, target] of rows) console.log(`| ${measure} | ${value} | ${target} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
