import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { freePort } from '../scripts/lib/system';
import { startApp } from '../tests/support/app-process';
import { insertCourse } from '../tests/support/courses';
import { closeAppDatabases, createMember, sessionCookieValue } from '../tests/support/members';
import { load, median, type Sample } from './lib/measure';
import { appEnvironment, webProcess } from './lib/web-process';

/**
 * `npm run bench -- api-courses` (issue 36, ADR 0030 amended): what one web process can serve of
 * GET /api/courses at saturation (a member with 20 courses, each record with its content), like
 * with like, against a bare `node:http` handler that reads the same rows through the app's own
 * models from the same SQLite file and answers the same bytes (bench/lib/bare-courses-models.ts).
 * Contenders, each its own process on the same running app's data:
 *  (a) the app's web process;
 *  (b) the same with BENCH_WITHOUT=direct-json, while the direct JSON route (ADR 27) exists;
 *  (c) the bare handler on the app's models: the yardstick;
 *  (d) for the record, bench/lib/bare-courses-server.ts, the same answer from hand-written SQL
 *      on better-sqlite3 (what issue 36's outside measurement compared with).
 * The bodies are checked byte for byte first. Then interleaved rounds (a b c d a b c d ...) of
 * autocannon with enough connections to saturate one process; medians with min–max, and each
 * round's ratio to the yardstick's round beside it. The machine is shared: rounds are short and
 * the load average is printed. BENCH_CPU_PROF=<dir> writes CPU profiles of (a) and (b) there.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const COURSES = 20;
const TARGET = 0.5;
const KEEP_IF = 0.2;
/**
 * Production as a deployment runs it: with an AI provider configured (never called here), so not
 * in demo mode, whose vendor mocks (msw) wrap the global Request, Response and Headers.
 */
const PRODUCTION: Record<string, string> = { DEMO_MODE: '', ANTHROPIC_API_KEY: 'sk-bench-unused' };

interface Contender {
  key: string;
  name: string;
  url: string;
  child: ChildProcess;
  samples: Sample[];
}

const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

/** A bare handler of bench/lib run as its own process (tsx) with the app's environment. */
async function bareProcess(file: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'lib', file)], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('bare ready')) resolve();
    });
    child.once('exit', () => reject(new Error(`${file} exited`)));
  });
  return child;
}

/** The body as a plain client gets it (no Accept-Encoding, as autocannon sends). */
function plainBody(url: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Cookie: cookie } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

const spread = (values: number[], digits = 0) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function main() {
  ensureBuild((line) => console.log(line));
  const app = await startApp({ LOG_LEVEL: 'error' });
  const children: ChildProcess[] = [];
  try {
    const member = await createMember(app.dataDir);
    for (let i = 0; i < COURSES; i += 1)
      await insertCourse(app.dataDir, member.id, {
        mainTopic: `Course ${i}`,
        lessons: 4,
        allDone: i % 3 === 0,
      });
    const cookie = `__session=${await sessionCookieValue(app.dataDir, member)}`;
    const profile = process.env.BENCH_CPU_PROF;
    const root = process.cwd();
    const contenders: Contender[] = [];
    const add = (key: string, name: string, base: string, child: ChildProcess) => {
      children.push(child);
      contenders.push({ key, name, url: `${base}/api/courses`, child, samples: [] });
    };
    const profiled = (name: string) =>
      profile
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${path.resolve(profile)}`,
            `--cpu-prof-name=${name}.cpuprofile`,
          ]
        : [];
    const withRoute = await webProcess(app, root, PRODUCTION, profiled('a'));
    add('a', 'app, one web process', withRoute.base, withRoute.child);
    if (process.env.BENCH_SKIP_WITHOUT !== '1') {
      const withoutRoute = await webProcess(
        app,
        root,
        { ...PRODUCTION, BENCH_WITHOUT: 'direct-json' },
        profiled('b'),
      );
      add('b', 'app, BENCH_WITHOUT=direct-json', withoutRoute.base, withoutRoute.child);
    }
    for (const [key, name, file] of [
      ['c', "bare node:http, the app's models", 'bare-courses-models.ts'],
      ['d', 'bare node:http, hand-written SQL', 'bare-courses-server.ts'],
    ] as const) {
      const port = await freePort();
      const child = await bareProcess(file, appEnvironment(app, port, PRODUCTION));
      add(key, name, `http://127.0.0.1:${port}`, child);
    }

    const bodies = await Promise.all(contenders.map((c) => plainBody(c.url, cookie)));
    const [first] = bodies;
    if (first!.status !== 200 || !first!.body.startsWith('[{'))
      throw new Error(`GET /api/courses answered ${first!.status}: ${first!.body.slice(0, 200)}`);
    bodies.forEach((answer, i) => {
      if (answer.status !== 200 || answer.body !== first!.body)
        throw new Error(`(${contenders[i]!.key}) answers other bytes:\n${answer.body}`);
    });
    console.log(
      `Bodies identical: ${Buffer.byteLength(first!.body)} bytes, ${COURSES} courses with content`,
    );

    const run = (c: Contender) =>
      load(c.url, { cookie, pid: c.child.pid, seconds: SECONDS, connections: CONNECTIONS });
    // Warm each (JIT, SQLite's page cache) before measuring.
    for (const c of contenders) await run(c);
    const started = new Date();
    const loadBefore = loadAverage();
    for (let round = 0; round < ROUNDS; round += 1)
      for (const c of contenders) c.samples.push(await run(c));
    const loadAfter = loadAverage();

    const byKey = new Map(contenders.map((c) => [c.key, c]));
    const rps = (key: string) => byKey.get(key)?.samples.map((s) => s.rps);
    const cpu = (key: string) => byKey.get(key)?.samples.map((s) => s.cpuUs ?? NaN);
    const perRound = (x: number[], y: number[], f: (x: number, y: number) => number) =>
      x.map((value, i) => f(value, y[i]!));

    console.log(
      `\nGET /api/courses, ${COURSES} courses: ${ROUNDS} interleaved rounds of ${SECONDS} s, ` +
        `${CONNECTIONS} connections, started ${started.toISOString().slice(0, 16)}Z, ` +
        `load average ${loadBefore} before, ${loadAfter} after, ${os.cpus().length} cores ` +
        `(${os.cpus()[0]?.model ?? 'unknown'})`,
    );
    console.log('| Contender | req/s, median | min–max | CPU µs/req, median | min–max |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const c of contenders) {
      const r = rps(c.key)!;
      const u = cpu(c.key)!;
      console.log(
        `| (${c.key}) ${c.name} | ${median(r).toFixed(0)} | ${spread(r)} | ` +
          `${median(u).toFixed(0)} | ${spread(u)} |`,
      );
    }
    const yardstick = rps('c')!;
    console.log('\n| Ratio (per round) | median | min–max |');
    console.log('| --- | --- | --- |');
    for (const key of ['a', 'b', 'd']) {
      const r = rps(key);
      if (!r) continue;
      const ratios = perRound(r, yardstick, (x, y) => x / y);
      console.log(`| ${key}/c req/s | ${median(ratios).toFixed(2)}× | ${spread(ratios, 2)} |`);
      // The same as a share of capacity counted in CPU time, which other work on the machine
      // disturbs less than req/s: the yardstick's CPU per request over this one's.
      const capacity = perRound(cpu(key)!, cpu('c')!, (x, y) => y / x);
      console.log(
        `| ${key}/c by CPU per request | ${median(capacity).toFixed(2)}× | ${spread(capacity, 2)} |`,
      );
    }
    const aRatio = median(perRound(rps('a')!, yardstick, (x, y) => x / y));
    if (byKey.has('b')) {
      // What the route buys, as ADR 30 counts it: the share of a request's cost it saves.
      const buys = perRound(rps('a')!, rps('b')!, (a, b) => 1 - b / a);
      const cpuBuys = perRound(cpu('a')!, cpu('b')!, (a, b) => 1 - a / b);
      console.log(
        `| direct route buys (1 − b/a req/s) | ${(median(buys) * 100).toFixed(0)}% | ` +
          `${spread(
            buys.map((v) => v * 100),
            0,
          )}% |`,
      );
      console.log(
        `| direct route buys (1 − a/b CPU per request) | ${(median(cpuBuys) * 100).toFixed(0)}% | ` +
          `${spread(
            cpuBuys.map((v) => v * 100),
            0,
          )}% |`,
      );
      console.log(
        `Direct route: ${median(buys) >= KEEP_IF ? 'keep' : 'remove'} (kept if it buys ≥ ${KEEP_IF * 100}%)`,
      );
    }
    console.log(
      `a/c ${aRatio.toFixed(2)}× (target ≥ ${TARGET}×)${aRatio < TARGET ? '  MISSED' : ''}`,
    );
    process.exitCode = aRatio < TARGET ? 1 : 0;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await closeAppDatabases();
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
