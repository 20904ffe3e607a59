import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { startApp } from '../tests/support/app-process';
import { insertCourse } from '../tests/support/courses';
import { closeAppDatabases, createMember, sessionCookieValue } from '../tests/support/members';
import { load, median, type Sample } from './lib/measure';
import { webProcess, type WebProcess } from './lib/web-process';

/**
 * `npm run bench -- metrics` (issue 41, ADR 0056): what request ids and metrics cost on the
 * hottest read. GET /api/courses (a member with 20 courses) from a web process with them
 * (METRICS_TOKEN set: an id per request in its context and header, every answer counted) and
 * one without (BENCH_WITHOUT=metrics), two extra web processes of the same app, in alternating
 * rounds, each after one sign-up (a write, as every web process in service has had). Prometheus
 * scrapes the "with" process between rounds, as it would every 15 s. Target: within 5 % in CPU
 * per request, which a busy machine disturbs less than req/s.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TOKEN = 'bench-metrics-token-0123456789';
const TARGET = 1.05;

async function main() {
  ensureBuild((line) => console.log(line));
  const app = await startApp({ LOG_LEVEL: 'error', WEB_CONCURRENCY: '1' });
  const webs: WebProcess[] = [];
  try {
    console.log(
      `Load average before: ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    const member = await createMember(app.dataDir);
    for (let i = 0; i < 20; i += 1)
      await insertCourse(app.dataDir, member.id, {
        mainTopic: `Course ${i}`,
        lessons: 4,
        allDone: false,
      });
    const cookie = `__session=${await sessionCookieValue(app.dataDir, member)}`;
    const root = path.resolve('.');
    const withIt = await webProcess(app, root, { METRICS_TOKEN: TOKEN });
    webs.push(withIt);
    const withoutIt = await webProcess(app, root, { BENCH_WITHOUT: 'metrics' });
    webs.push(withoutIt);
    const run = (web: WebProcess) =>
      load(`${web.base}/api/courses`, {
        cookie,
        pid: web.child.pid,
        seconds: SECONDS,
        connections: 4,
      });
    const scrape = async () => {
      const response = await fetch(`${withIt.base}/metrics`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
      await response.text();
    };

    // A web process's first transaction (a sign-up here) switches on Node's async context
    // tracking for its database scope (app/utils/database.server.ts), as any write does in
    // production; the request ids' context rides on it. Both contenders are measured so.
    for (const web of [withIt, withoutIt]) {
      const signUp = await fetch(`${web.base}/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: web.base },
        body: new URLSearchParams({
          mName: 'Bench',
          email: `bench-${web.child.pid}@example.com`,
          password: 'correct-horse-battery',
        }),
        redirect: 'manual',
      });
      if (signUp.status !== 302 && signUp.status !== 303)
        throw new Error(`/signup answered ${signUp.status}`);
    }
    await run(withIt);
    await run(withoutIt);
    const results = { with: [] as Sample[], without: [] as Sample[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 ? (['without', 'with'] as const) : (['with', 'without'] as const);
      for (const which of order) {
        results[which].push(await run(which === 'with' ? withIt : withoutIt));
        await scrape();
      }
    }
    const cpu = (samples: Sample[]) => median(samples.map((sample) => sample.cpuUs ?? NaN));
    const rps = (samples: Sample[]) => median(samples.map((sample) => sample.rps));
    const line = (name: string, samples: Sample[]) =>
      `  ${name.padEnd(28)} ${rps(samples).toFixed(0).padStart(6)} req/s  CPU ${cpu(samples)
        .toFixed(0)
        .padStart(4)} µs/req  (rounds: ${samples.map((s) => s.cpuUs?.toFixed(0)).join(' ')})`;
    console.log(
      `GET /api/courses, 20 courses, ${ROUNDS} alternating rounds of ${SECONDS} s (medians):`,
    );
    console.log(line('with request ids + metrics', results.with));
    console.log(line('without (BENCH_WITHOUT)', results.without));
    const ratio = cpu(results.with) / cpu(results.without);
    console.log(
      `  CPU per request with/without ${ratio.toFixed(3)}×  (target ≤ ${TARGET}×)` +
        (ratio > TARGET ? '  MISSED' : ''),
    );
    process.exitCode = ratio > TARGET ? 1 : 0;
  } finally {
    for (const web of webs) web.child.kill('SIGTERM');
    await closeAppDatabases();
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
