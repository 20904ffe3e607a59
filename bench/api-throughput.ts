import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../scripts/lib/system';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { startApp, type RunningApp } from '../tests/support/app-process';
import { insertCourse } from '../tests/support/courses';
import { closeAppDatabases, createMember, sessionCookieValue } from '../tests/support/members';
import type { MemberClient } from './lib/member-client';
import { load as loadRun, median, type Sample } from './lib/measure';

/**
 * `npm run bench -- api-throughput`: the fixed cost of a request (issue 16). GET /api/courses
 * (20 courses) from the production server against a bare `node:http` + better-sqlite3 handler
 * (bench/lib/bare-courses-server.ts) that checks the same signed cookie, looks up the same
 * session and answers byte-identical JSON from the same file. Like with like: one web process
 * (WEB_CONCURRENCY=1) against the one bare process, interleaved A B A B with autocannon; then,
 * for the record, the cluster (WEB_CONCURRENCY=2) against the same bare process. The load
 * generator shares the 2 cores, so the cluster figure is what is left of them. On Linux it also
 * prints the CPU time each of the two single processes spent per request (from /proc), which a
 * busy machine disturbs less than req/s.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const COURSES = 20;
const TARGET = 0.5;

const load = (url: string, cookie: string, pid?: number) =>
  loadRun(url, { cookie, pid, seconds: SECONDS, connections: CONNECTIONS });

async function startBare(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/bare-courses-server.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('bare ready')) resolve();
    });
    child.once('exit', () => reject(new Error('the bare handler exited')));
  });
  return { url: `http://127.0.0.1:${port}/api/courses`, child };
}

/** The product with a member of COURSES courses, and that member's signed-in client. */
async function seededApp(webProcesses: number) {
  const app = await startApp({ WEB_CONCURRENCY: String(webProcesses), LOG_LEVEL: 'error' });
  const member = await createMember(app.dataDir);
  for (let i = 0; i < COURSES; i += 1)
    await insertCourse(app.dataDir, member.id, {
      mainTopic: `Course ${i}`,
      lessons: 4,
      allDone: i % 3 === 0,
    });
  const client: MemberClient = {
    base: app.baseURL,
    cookie: `__session=${await sessionCookieValue(app.dataDir, member)}`,
  };
  return { app, client };
}

/** The web process that answers (one when WEB_CONCURRENCY=1): /healthz names it. */
async function servingPid(base: string): Promise<number> {
  return ((await (await fetch(`${base}/healthz`)).json()) as { pid: number }).pid;
}

async function compare(
  label: string,
  client: MemberClient,
  bare: { url: string; pid?: number },
  appPid?: number,
) {
  const appUrl = `${client.base}/api/courses`;
  const [appBody, bareBody] = await Promise.all(
    [appUrl, bare.url].map(async (url) =>
      (await fetch(url, { headers: { Cookie: client.cookie } })).text(),
    ),
  );
  if (appBody !== bareBody) throw new Error(`The two answers differ:\n${appBody}\n${bareBody}`);
  // Warm both (JIT, SQLite page cache) before measuring.
  await load(appUrl, client.cookie);
  await load(bare.url, client.cookie);
  const app: Sample[] = [];
  const base: Sample[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    app.push(await load(appUrl, client.cookie, appPid));
    base.push(await load(bare.url, client.cookie, bare.pid));
  }
  const cpu = (samples: Sample[]) =>
    samples.every((s) => s.cpuUs !== undefined) ? median(samples.map((s) => s.cpuUs!)) : undefined;
  const appCpu = cpu(app);
  const bareCpu = cpu(base);
  const line = (name: string, samples: Sample[], cpuUs: number | undefined) =>
    `  ${name.padEnd(34)} ${median(samples.map((s) => s.rps))
      .toFixed(0)
      .padStart(6)} req/s  p50 ${median(samples.map((s) => s.p50))
      .toFixed(1)
      .padStart(5)} ms  p99 ${median(samples.map((s) => s.p99))
      .toFixed(1)
      .padStart(5)} ms${cpuUs === undefined ? '' : `  CPU ${cpuUs.toFixed(0).padStart(4)} µs/req`}`;
  console.log(
    `${label} (${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONNECTIONS} connections, medians):`,
  );
  console.log(line('CourseGen', app, appCpu));
  console.log(line('bare node:http + better-sqlite3', base, bareCpu));
  return {
    ratio: median(app.map((s) => s.rps)) / median(base.map((s) => s.rps)),
    cpuRatio: appCpu && bareCpu ? bareCpu / appCpu : undefined,
  };
}

async function main() {
  ensureBuild((line) => console.log(line));
  const apps: RunningApp[] = [];
  let bare: ChildProcess | undefined;
  try {
    const single = await seededApp(1);
    apps.push(single.app);
    const yardstick = await startBare(single.app.dataDir);
    bare = yardstick.child;
    const { ratio, cpuRatio } = await compare(
      `GET /api/courses, ${COURSES} courses: one web process vs the bare process`,
      single.client,
      { url: yardstick.url, pid: bare.pid },
      await servingPid(single.client.base),
    );
    console.log(
      `  ratio ${ratio.toFixed(2)}×  (target ≥ ${TARGET}×)${ratio < TARGET ? '  MISSED' : ''}`,
    );
    if (cpuRatio !== undefined)
      console.log(`  CPU per request: the bare handler's is ${cpuRatio.toFixed(2)}× ours`);
    await single.app.stop();
    apps.pop();
    bare.kill();

    const cluster = await seededApp(2);
    apps.push(cluster.app);
    const second = await startBare(cluster.app.dataDir);
    bare = second.child;
    const { ratio: clusterRatio } = await compare(
      'The same with WEB_CONCURRENCY=2 (both cores, shared with the load generator)',
      cluster.client,
      { url: second.url },
    );
    console.log(`  ratio ${clusterRatio.toFixed(2)}×  (for the record; the target is per process)`);
    process.exitCode = ratio < TARGET ? 1 : 0;
  } finally {
    bare?.kill();
    await closeAppDatabases();
    for (const app of apps) await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
