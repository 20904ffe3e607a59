/**
 * `npm run bench -- databases` (issue 27, "Performance on both"): SQLite and PostgreSQL side by
 * side, in one run.
 *
 * Starts the compiled product twice (tests/support/app-process.ts: `node build/bin/start.js`,
 * demo mode, a data folder and Redis prefix of its own, one web process and a worker each): once
 * on its default SQLite file, once on a fresh PostgreSQL database made on the local server
 * (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432) and dropped at the end. Both
 * migrate and seed themselves; then the same generated rows go into each (BENCH_MEMBERS members,
 * default 10,000, and BENCH_COURSES courses, default 100,000; the newest 2,000 with 5 topics x 2
 * lessons written), followed by ANALYZE (VACUUM ANALYZE on PostgreSQL). Then:
 *
 * 1. Page latency over HTTP, as a browser asks (the full server render, answered and read):
 *    `/home` of a paid member owning 30 courses, the course view of one of them (5 topics x 2
 *    lessons, written) and the admin `/dashboard`, BENCH_ROUNDS interleaved rounds (default 200):
 *    each round asks every page of both apps once, SQLite and PostgreSQL one after the other
 *    (which goes first alternates), so noise on the machine hits both alike. p50 and p95 against
 *    the targets: p95 <= 20 ms (dashboard <= 50 ms), PostgreSQL's p95 within 2x of SQLite's.
 * 2. The burst, as bench/burst.ts measures it: BENCH_BURST_COURSES members (default 500) each
 *    submit /create at the same instant, then Generate Course as soon as their outline is
 *    written; the mock AI answers each call after BENCH_MODEL_MS (default 2000). Time until every
 *    lesson is written against the bound lessons x model time / LESSON_CONCURRENCY (50), and lost
 *    jobs (work the sweeper had to re-enqueue, outlines never written, courses never made,
 *    lessons never written; target 0). This part cannot interleave: SQLite first, then
 *    PostgreSQL (BENCH_BURST_COURSES=0 skips it).
 *
 * Needs Redis (REDIS_URL, else 127.0.0.1:6379), a PostgreSQL server whose user may create
 * databases, and a build (`npm run build`). Exits non-zero when a target is missed.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { startApp, type RunningApp } from '../tests/support/app-process';
import { createTestDatabase, type TestDatabase } from '../tests/support/postgres';
import {
  postgresBenchDatabase,
  sqliteBenchDatabase,
  type BenchDatabase,
  type LessonCounts,
} from './lib/bench-database';
import { burstMembers, generateBulkData } from './lib/bulk-data';
import { post, refusals, type MemberClient } from './lib/member-client';
import { requeued } from './lib/requeued';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);
const COURSES = Number(process.env.BENCH_COURSES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARM_UP = 10;
const BURST_COURSES = Number(process.env.BENCH_BURST_COURSES ?? 500);
const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 2000);
const LESSON_CONCURRENCY = 50; // the product's default (app/utils/env.server.ts)
const OUTLINE_CONCURRENCY = 50;
const HOME_COURSES = 30;
const SHAPE = {
  members: MEMBERS,
  courses: COURSES,
  homeCourses: HOME_COURSES,
  writtenCourses: Math.min(2_000, COURSES),
  topicsPerCourse: 5,
  lessonsPerTopic: 2,
};
/** PostgreSQL's app signs cookies with it (required with DATABASE_URL); SQLite's makes its own. */
const SESSION_SECRET = randomBytes(24).toString('hex');
/** A page's p95 may be at most this many times SQLite's on PostgreSQL. */
const RATIO_TARGET = 2;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fixed = (value: number, digits = 1) => value.toFixed(digits);
const seconds = (ms: number) => `${fixed(ms / 1000)} s`;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

interface Page {
  name: string;
  path: string;
  who: 'home' | 'admin';
  targetP95: number;
}

/** GET with the member's cookie; the body read whole, as a browser would. */
async function get(baseURL: string, path: string, cookie: string) {
  const response = await fetch(`${baseURL}${path}`, {
    headers: { Cookie: cookie },
    redirect: 'manual',
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${baseURL}${path} answered ${response.status}`);
  return body;
}

async function timedGet(baseURL: string, path: string, cookie: string) {
  const started = performance.now();
  await get(baseURL, path, cookie);
  return performance.now() - started;
}

/** What a page showed, so that both databases are seen to answer the same page. */
function describePage(page: Page, body: string) {
  const kb = `${fixed(body.length / 1024, 0)} KB`;
  if (page.who === 'admin') {
    const figures = [...body.matchAll(/>(\d{4,})</g)].map(([, n]) => n).slice(0, 2);
    return `${kb}, figures ${figures.join(' / ')}`;
  }
  if (page.path === '/home')
    return `${kb}, ${body.split('data-testid="course-card"').length - 1} course cards`;
  const lessons = new Set([...body.matchAll(/Lesson \d+\.\d+/g)].map(([title]) => title)).size;
  return `${kb}, ${lessons} lesson titles, lesson text ${body.includes('Paragraph 1:') ? 'shown' : 'MISSING'}`;
}

function createForm(topic: string) {
  const form = new URLSearchParams({ topic, topicCount: '5', type: 'text' });
  form.append('subtopic', 'Foundations');
  return form;
}

interface BurstResult {
  database: string;
  createMs: number;
  lessonsMs: number;
  allMs: number;
  counts: LessonCounts;
  outlinesNotDone: number;
  generateFailed: number;
  swept: Record<string, number>;
  lost: number;
  boundMs: number;
  /** POSTs refused with 503 and Retry-After, then asked again. */
  refused: number;
}

/** bench/burst.ts's burst of courses, on one database. */
async function burst(db: BenchDatabase, count: number): Promise<BurstResult> {
  const users = burstMembers(count, `burst-${db.name.toLowerCase()}`);
  await db.addMembers(users);
  const cookies = await db.signIn(users.map((user) => user.id));
  const clients: MemberClient[] = cookies.map((cookie) => ({ base: db.app.baseURL, cookie }));
  const sweptBefore = Object.values(requeued(db.app)).reduce((sum, n) => sum + n, 0);
  const refusedBefore = refusals.count;

  const started = performance.now();
  const topicsPaths = await Promise.all(
    clients.map((client, i) => post(client, '/create', createForm(`Burst Course ${i}`))),
  );
  const createMs = performance.now() - started;
  const outlineIds = topicsPaths.map((topicsPath) => topicsPath.split('/').pop()!);

  // Generate Course as each outline is written.
  const pending = new Map(outlineIds.map((id, i) => [id, i]));
  const generated: Promise<unknown>[] = [];
  let firstGenerateAt = 0;
  const outlineDeadline =
    performance.now() + Math.max(120_000, (4 * count * MODEL_MS) / OUTLINE_CONCURRENCY);
  while (pending.size > 0 && performance.now() < outlineDeadline) {
    for (const id of await db.outlinesDone([...pending.keys()])) {
      const i = pending.get(id)!;
      pending.delete(id);
      firstGenerateAt ||= performance.now();
      generated.push(post(clients[i]!, topicsPaths[i]!, new URLSearchParams()));
    }
    await sleep(200);
  }
  const answers = await Promise.allSettled(generated);
  const failures = answers.filter((answer) => answer.status === 'rejected');
  if (failures.length > 0)
    console.log(
      `  ${failures.length} Generate Course failed, first: ${String(failures[0]!.reason)}`,
    );

  // Every lesson written, or the deadline (4x the bound, at least 2 minutes).
  let counts: LessonCounts;
  for (;;) {
    counts = await db.lessonCounts(outlineIds);
    const expected = answers.length - failures.length;
    if (counts.courses >= expected && counts.lessons > 0 && counts.lessonsDone === counts.lessons)
      break;
    const bound = (counts.lessons * MODEL_MS) / LESSON_CONCURRENCY;
    if (performance.now() - (firstGenerateAt || started) > Math.max(120_000, 4 * bound)) break;
    await sleep(250);
  }
  const finished = performance.now();
  // The sweep runs on its own timer: let one more pass report what it found.
  const swept = requeued(db.app);
  const sweptCount = Object.values(swept).reduce((sum, n) => sum + n, 0) - sweptBefore;
  const coursesNeverMade = answers.length - failures.length - counts.courses;
  const lost =
    sweptCount +
    pending.size +
    failures.length +
    Math.max(0, coursesNeverMade) +
    (counts.lessons - counts.lessonsDone);
  return {
    database: db.name,
    createMs,
    lessonsMs: finished - (firstGenerateAt || started),
    allMs: finished - started,
    counts,
    outlinesNotDone: pending.size,
    generateFailed: failures.length,
    swept,
    lost,
    boundMs: (counts.lessons * MODEL_MS) / LESSON_CONCURRENCY,
    refused: refusals.count - refusedBefore,
  };
}

async function main() {
  console.log(
    `Databases benchmark: ${MEMBERS} members and ${COURSES} courses in each database, ${ROUNDS} interleaved rounds, ` +
      `burst of ${BURST_COURSES} courses with the mock AI answering after ${MODEL_MS} ms; ` +
      `${os.availableParallelism()} cores, Node ${process.version}, load average before ${loadAverage()}\n`,
  );
  const apps: RunningApp[] = [];
  const dbs: BenchDatabase[] = [];
  let postgres: TestDatabase | undefined;
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const db of dbs) await db.close().catch(() => undefined);
    for (const app of apps) await app.stop().catch(() => undefined);
    await postgres?.drop().catch((error: unknown) => console.error(error));
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

  const missed: string[] = [];
  try {
    postgres = await createTestDatabase('bench_databases');
    const appEnv = {
      MOCK_AI_LATENCY_MS: String(MODEL_MS),
      // Each streamed lesson arrives whole after the model's time, so the bound holds.
      MOCK_AI_STREAM_CHUNK_MS: '0',
      AI_REQUESTS_PER_HOUR: '100000',
      // The product's defaults, as bench/burst.ts runs it (one web process queues at most 256
      // writes and refuses the rest of 500 simultaneous /create with 503 and Retry-After).
      WEB_CONCURRENCY: String(os.availableParallelism()),
    };
    const sqliteApp = await startApp(appEnv);
    apps.push(sqliteApp);
    const pgApp = await startApp({
      ...appEnv,
      DATABASE_URL: postgres.url,
      SESSION_SECRET,
    });
    apps.push(pgApp);
    dbs.push(
      sqliteBenchDatabase(sqliteApp),
      postgresBenchDatabase(pgApp, postgres.url, SESSION_SECRET),
    );
    for (const db of dbs) console.log(`${db.name}: ${await db.serverVersion()}`);

    const data = generateBulkData(SHAPE);
    console.log(
      `Seeding each: ${data.users.length} members, ${data.courses.length} courses, ${data.topics.length} topics, ${data.lessons.length} lessons`,
    );
    for (const db of dbs) console.log(`  ${db.name}: seeded in ${fixed(await db.seed(data))} s`);

    const pages: Page[] = [
      { name: `\`/home\` (${HOME_COURSES} courses)`, path: '/home', who: 'home', targetP95: 20 },
      {
        name: 'Course view (5 topics × 2 lessons)',
        path: `/course/${data.viewedCourseId}`,
        who: 'home',
        targetP95: 20,
      },
      { name: '`/dashboard` (admin)', path: '/dashboard', who: 'admin', targetP95: 50 },
    ];
    const cookies = await Promise.all(
      dbs.map(async (db) => {
        const [admin, home] = await db.signIn([data.adminId, data.homeMemberId]);
        return { admin: admin!, home: home! };
      }),
    );

    console.log('\nWhat each page shows (first answer):');
    for (const page of pages)
      for (const [d, db] of dbs.entries()) {
        const body = await get(db.app.baseURL, page.path, cookies[d]![page.who]);
        console.log(`  ${page.path.padEnd(40)} ${db.name.padEnd(10)} ${describePage(page, body)}`);
      }
    for (let i = 0; i < WARM_UP; i += 1)
      for (const page of pages)
        for (const [d, db] of dbs.entries())
          await get(db.app.baseURL, page.path, cookies[d]![page.who]);

    // Interleaved: every round asks each page of both apps once, which one first alternating.
    const times = pages.map(() => dbs.map(() => [] as number[]));
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round += 1)
      for (const [p, page] of pages.entries())
        for (const d of round % 2 === 0 ? [0, 1] : [1, 0])
          times[p]![d]!.push(await timedGet(dbs[d]!.app.baseURL, page.path, cookies[d]![page.who]));
    console.log(
      `\n${ROUNDS} interleaved rounds in ${seconds(performance.now() - started)}, load average after ${loadAverage()}`,
    );

    const pageRows: string[] = [];
    for (const [p, page] of pages.entries()) {
      const [sqlite, pgTimes] = times[p]!;
      const p50 = [percentile(sqlite!, 50), percentile(pgTimes!, 50)];
      const p95 = [percentile(sqlite!, 95), percentile(pgTimes!, 95)];
      const ratio = p95[1]! / p95[0]!;
      const verdicts: string[] = [];
      for (const [d, db] of dbs.entries())
        if (p95[d]! > page.targetP95) {
          verdicts.push(`MISSED (${db.name} p95 > ${page.targetP95} ms)`);
          missed.push(`${page.path} p95 on ${db.name}`);
        }
      if (ratio > RATIO_TARGET) {
        verdicts.push(`MISSED (ratio > ${RATIO_TARGET}×)`);
        missed.push(`${page.path} PostgreSQL/SQLite ratio`);
      }
      pageRows.push(
        `| ${page.name} | ${fixed(p50[0]!)} / ${fixed(p95[0]!)} ms | ${fixed(p50[1]!)} / ${fixed(p95[1]!)} ms | ${ratio.toFixed(2)}× | p95 ≤ ${page.targetP95} ms, ≤ ${RATIO_TARGET}× | ${verdicts.length ? verdicts.join(', ') : 'met'} |`,
      );
    }
    console.log(
      '\n| Page | SQLite p50 / p95 | PostgreSQL p50 / p95 | p95 ratio (PG ÷ SQLite) | Target | Result |',
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const row of pageRows) console.log(row);

    if (BURST_COURSES > 0) {
      const results: BurstResult[] = [];
      for (const db of dbs) {
        console.log(`\nBurst of ${BURST_COURSES} courses on ${db.name}...`);
        const result = await burst(db, BURST_COURSES);
        results.push(result);
        console.log(
          `  done in ${seconds(result.allMs)}, load average ${loadAverage()}; ${JSON.stringify(result.counts)}`,
        );
        // Settle before the next database's burst.
        await sleep(5_000);
      }
      console.log(
        '\n| Database | All POST /create answered | Refused with 503, asked again | Every lesson written, from the first Generate Course | Bound (lessons × model ÷ 50) | × bound | From the first /create | Lost jobs (target 0) |',
      );
      console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
      for (const result of results) {
        if (result.lost > 0) missed.push(`lost jobs on ${result.database}`);
        const detail = `${result.outlinesNotDone} outlines never written, ${result.generateFailed} Generate Course failed, ${result.counts.lessons - result.counts.lessonsDone} lessons never written, re-enqueued ${JSON.stringify(result.swept)}`;
        console.log(
          `| ${result.database} | ${seconds(result.createMs)} | ${result.refused} | ${seconds(result.lessonsMs)} (${result.counts.courses} courses, ${result.counts.lessons} lessons) | ${seconds(result.boundMs)} | ${(result.lessonsMs / result.boundMs).toFixed(2)}× | ${seconds(result.allMs)} | ${result.lost}${result.lost > 0 ? ' MISSED' : ''} (${detail}) |`,
        );
      }
    }
  } catch (error) {
    // What the apps said about it (a busy database, a failed job) before they are stopped.
    for (const app of apps) {
      const said = app
        .output()
        .split('\n')
        .filter((line) => /"level":"(warn|error)"/.test(line));
      if (said.length)
        console.error(`\nThe app on ${app.baseURL} warned:\n${said.slice(-15).join('\n')}`);
    }
    throw error;
  } finally {
    await cleanUp();
  }
  console.log(`\nLoad average at the end: ${loadAverage()}`);
  if (missed.length > 0) {
    console.log(`MISSED: ${missed.join('; ')}`);
    process.exitCode = 1;
  } else console.log('Every target met.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
