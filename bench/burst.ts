/**
 * Burst benchmark: `npx tsx bench/burst.ts` (issue 16, ADR 0024)
 *
 * Starts the real product (web processes + worker, as `npm start` does, with the defaults) in
 * demo mode with the AI mock answering each call after BENCH_MODEL_MS (default 2000), then:
 *
 * 1. `/` p99 while BENCH_CREATES (default 200) members submit /create at the same instant,
 *    against `/` p99 idle, interleaved (idle, burst, idle, burst...) BENCH_ROUNDS times;
 * 2. BENCH_COURSES (default 500) members create a course each at once (/create, then Generate
 *    Course as soon as their outline is written): time until every lesson is written against
 *    lessons x model time / lesson concurrency, lost jobs (work the sweeper had to re-enqueue,
 *    or never finished), the worker's and web processes' RSS peaks, and `/` p99 during the
 *    burst against idle.
 *
 * `/` is sampled open-loop from a thread of its own, so the load generator's own work does not
 * delay the answers it times (a request every BENCH_SAMPLE_MS, default 25, around the /create
 * bursts, and every BENCH_BURST_SAMPLE_MS, default 100, around the minutes-long burst of
 * courses; each on its own connection, whether or not the previous one answered), as visitors
 * arrive.
 * Needs Redis on 127.0.0.1:6379 (or REDIS_URL) and a build (`npx remix vite:build`).
 */
import fs from 'node:fs';
import os from 'node:os';
import { startApp, type RunningApp } from '../tests/support/app-process';
import { databaseFile, openDatabase } from '../db/connection';
import { startSampler } from './lib/landing-sampler';
import { requeued } from './lib/requeued';
import { memberClient, post, type MemberClient } from './lib/member-client';

const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 2000);
const COURSES = Number(process.env.BENCH_COURSES ?? 500);
const CREATES = Number(process.env.BENCH_CREATES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 25);
/** Minutes of burst need fewer samples per second, and a sampler must not be the load. */
const BURST_SAMPLE_MS = Number(process.env.BENCH_BURST_SAMPLE_MS ?? 100);
const LESSON_CONCURRENCY = 50; // the product's default (app/utils/env.server.ts)

const ms = (value: number) => `${Math.round(value)} ms`;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? Number.NaN;
};
const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

/** `/` latencies, sampled from a thread of its own until `until` settles (or for `until` ms). */
async function sampleLanding(
  baseURL: string,
  until: Promise<unknown> | number,
  everyMs = SAMPLE_MS,
) {
  const sampler = startSampler(`${baseURL}/`, everyMs);
  await (typeof until === 'number' ? sleep(until) : until).catch(() => undefined);
  const samples = await sampler.stop();
  await until;
  return samples;
}

/** The app's processes by role, found by their DATA_DIR, and their resident memory peaks. */
function watchMemory(dataDir: string) {
  const peaks = { worker: 0, web: 0 };
  const roleOf = (pid: string): 'worker' | 'web' | undefined => {
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`DATA_DIR=${dataDir}\0`))
        return undefined;
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (command.includes('bin/worker.js')) return 'worker';
      if (command.includes('bin/web-process.js')) return 'web';
    } catch {
      // gone, or not ours
    }
    return undefined;
  };
  const pids = new Map<string, 'worker' | 'web'>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const role = roleOf(pid);
    if (role) pids.set(pid, role);
  }
  const timer = setInterval(() => {
    for (const [pid, role] of pids) {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peaks[role] = Math.max(peaks[role], kb / 1024);
      } catch {
        pids.delete(pid);
      }
    }
  }, 250);
  return {
    processes: () => [...pids.values()],
    stop: () => {
      clearInterval(timer);
      return peaks;
    },
  };
}

function createForm(topic: string) {
  const form = new URLSearchParams({ topic, topicCount: '5', type: 'text' });
  form.append('subtopic', 'Foundations');
  return form;
}

async function members(app: RunningApp, count: number): Promise<MemberClient[]> {
  const clients: MemberClient[] = [];
  for (let i = 0; i < count; i += 1) clients.push(await memberClient(app, 'free'));
  return clients;
}

/** `count` members submit /create at the same instant; resolves when every one has answered. */
async function createBurst(clients: MemberClient[], label: string) {
  return Promise.all(
    clients.map((client, i) => post(client, '/create', createForm(`${label} ${i}`))),
  );
}

interface Counts {
  outlinesDone: number;
  lessons: number;
  lessonsDone: number;
}

/** The app's SQLite file, opened beside it (one connection for the run). */
let appSqlite: ReturnType<typeof openDatabase>['$client'] | undefined;
const sqliteOf = (app: RunningApp) =>
  (appSqlite ??= openDatabase(databaseFile(app.dataDir)).$client);

function counts(app: RunningApp, outlineIds: string[]): Counts {
  const sqlite = sqliteOf(app);
  const marks = outlineIds.map(() => '?').join(',');
  const outlinesDone = (
    sqlite
      .prepare(`select count(*) as n from outlines where id in (${marks}) and state = 'done'`)
      .get(...outlineIds) as { n: number }
  ).n;
  const lessons = sqlite
    .prepare(
      `select count(*) as n, coalesce(sum(state = 'done'), 0) as done from lessons
       where course_id in (select course_id from outlines where id in (${marks}))`,
    )
    .get(...outlineIds) as { n: number; done: number };
  return { outlinesDone, lessons: lessons.n, lessonsDone: lessons.done };
}

async function main() {
  const cores = os.availableParallelism();
  const load = os.loadavg().map((value) => value.toFixed(2));
  console.log(
    `Burst benchmark: mock AI ${MODEL_MS} ms per call, ${COURSES} courses, ${CREATES} simultaneous /create x ${ROUNDS}, ${cores} cores, load average before ${load.join(' ')}\n`,
  );
  const app = await startApp({
    MOCK_AI_LATENCY_MS: String(MODEL_MS),
    // Each streamed lesson arrives whole after the model's time, so the ideal below holds.
    MOCK_AI_STREAM_CHUNK_MS: '0',
    AI_REQUESTS_PER_HOUR: '100000',
    // The product's defaults, not the test harness's single web process.
    WEB_CONCURRENCY: String(cores),
  });
  const rows: [string, string, string][] = [];
  /** Targets missed: the run exits non-zero, as `npm run bench` expects. */
  const missed: string[] = [];
  const memory = watchMemory(app.dataDir);
  try {
    // Warm-up: code paths loaded, connections open.
    await createBurst(await members(app, 5), 'Warm Up');
    await sampleLanding(app.baseURL, 1000);

    // 1. /create bursts against idle, interleaved.
    const idle: number[] = [];
    const duringCreates: number[] = [];
    const createAnswers: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      idle.push(...(await sampleLanding(app.baseURL, 3000)));
      const clients = await members(app, CREATES);
      const started = performance.now();
      const burst = createBurst(clients, `Create Round ${round}`).then(() =>
        createAnswers.push(performance.now() - started),
      );
      duringCreates.push(...(await sampleLanding(app.baseURL, burst)));
      // Let the outlines of this round be written before the next idle sample.
      await sleep(Math.ceil(CREATES / 50) * MODEL_MS + 1000);
    }
    const idleP99 = percentile(idle, 0.99);
    if (percentile(duringCreates, 0.99) >= 150) missed.push('/ p99 during /create');
    rows.push(['`/` p99 idle', `${ms(idleP99)} (p50 ${ms(percentile(idle, 0.5))})`, 'baseline']);
    rows.push([
      `\`/\` p99 during ${CREATES} simultaneous POST /create`,
      `${ms(percentile(duringCreates, 0.99))} (${(percentile(duringCreates, 0.99) / idleP99).toFixed(1)}× idle; ${duringCreates.length} samples)`,
      'under 150 ms',
    ]);
    rows.push([
      `All ${CREATES} POST /create answered`,
      ms(percentile(createAnswers, 0.5)),
      'median of rounds',
    ]);

    // 2. The burst of courses (BENCH_COURSES=0 measures only the /create bursts).
    if (COURSES > 0) {
      const idleBefore = await sampleLanding(app.baseURL, 10_000, BURST_SAMPLE_MS);
      const clients = await members(app, COURSES);
      const started = performance.now();
      const topicsPaths = await createBurst(clients, 'Burst Course');
      const outlineIds = topicsPaths.map((topicsPath) => topicsPath.split('/').pop()!);
      const sqlite = sqliteOf(app);
      const outlineState = sqlite.prepare('select state from outlines where id = ?');
      let firstCourseAt = 0;
      const generating = (async () => {
        const pending = new Map(outlineIds.map((id, i) => [id, i]));
        const generated: Promise<unknown>[] = [];
        while (pending.size > 0) {
          for (const [id, i] of pending) {
            if ((outlineState.get(id) as { state: string }).state !== 'done') continue;
            pending.delete(id);
            firstCourseAt ||= performance.now();
            generated.push(post(clients[i]!, topicsPaths[i]!, new URLSearchParams()));
          }
          await sleep(200);
        }
        await Promise.all(generated);
        const deadline = performance.now() + 30 * 60_000;
        for (;;) {
          const now = counts(app, outlineIds);
          if (now.lessons > 0 && now.lessonsDone === now.lessons) return now;
          if (performance.now() > deadline) return now;
          await sleep(250);
        }
      })();
      const during = await sampleLanding(app.baseURL, generating, BURST_SAMPLE_MS);
      const finished = await generating;
      const allMs = performance.now() - started;
      const lessonsMs = performance.now() - firstCourseAt;
      const peaks = memory.stop();

      const ideal = (finished.lessons * MODEL_MS) / LESSON_CONCURRENCY;
      rows.push([
        `${COURSES} courses at once: every lesson written (${finished.lessons} lessons), from the first Generate Course`,
        `${ms(lessonsMs)} (${(lessonsMs / ideal).toFixed(2)}× ideal; ${ms(allMs)} from the first /create)`,
        `${finished.lessons} × ${MODEL_MS} ms ÷ ${LESSON_CONCURRENCY} = ${ms(ideal)}`,
      ]);
      const swept = requeued(app);
      const unfinished =
        COURSES - finished.outlinesDone + (finished.lessons - finished.lessonsDone);
      const lost = Object.values(swept).reduce((sum, n) => sum + n, 0) + unfinished;
      rows.push([
        'Lost jobs (re-enqueued by the sweeper, or never finished)',
        `${lost} (${JSON.stringify(swept)}, ${unfinished} unfinished)`,
        '0',
      ]);
      rows.push([
        'RSS peak: worker / largest web process',
        `${Math.round(peaks.worker)} MB / ${Math.round(peaks.web)} MB`,
        `bounded (${memory.processes().length} processes watched)`,
      ]);
      const idleBurstP99 = percentile(idleBefore, 0.99);
      const duringP99 = percentile(during, 0.99);
      if (duringP99 > 2 * idleBurstP99) missed.push('/ p99 during the burst');
      if (lost > 0) missed.push('lost jobs');
      rows.push([
        `\`/\` p99 during the burst of ${COURSES} courses`,
        `${ms(duringP99)} against ${ms(idleBurstP99)} idle (${(duringP99 / idleBurstP99).toFixed(1)}×; ${during.length} samples)`,
        '≤ 2× idle',
      ]);
    }
  } finally {
    // Its timer would keep the process alive once the /create bursts alone are measured.
    memory.stop();
    appSqlite?.close();
    await app.stop();
  }
  console.log(
    `Load average after: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('| Measure | Result | Target |');
  console.log('|---|---|---|');
  for (const [measure, value, target] of rows) console.log(`| ${measure} | ${value} | ${target} |`);
  if (missed.length > 0) {
    console.log(`\nMissed: ${missed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
