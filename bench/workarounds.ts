import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { startApp } from '../tests/support/app-process';
import { insertCourse } from '../tests/support/courses';
import { closeAppDatabases, createMember, sessionCookieValue } from '../tests/support/members';
import { startSampler } from './lib/landing-sampler';
import { load, median } from './lib/measure';
import { memberClient, post } from './lib/member-client';
import { webProcess, type WebProcess } from './lib/web-process';

/**
 * `npm run bench -- workarounds` (issue 26, ADR 0030): what each work-around of the web server
 * still buys on the compiled build, measured side by side with the same server without it, in
 * alternating rounds, on the benchmark it was made for. A work-around is kept only if it buys at
 * least 20 %.
 *  - patches/ (ADR 25, route matching worked out once): CPU per request of GET / from a web
 *    process running on the patched packages against one running on the packages as published
 *    (a twin of node_modules whose three patched packages are copies with the patches reversed).
 *  - direct JSON routes (ADR 27): CPU per request of GET /api/courses (a member with 20 courses)
 *    with and without (BENCH_WITHOUT=direct-json).
 *  - write turns (ADR 26): p99 of GET / while 200 members press Create at once, with and without
 *    (BENCH_WITHOUT=write-turns).
 * Each contender is one extra web process of the same app (its database, Redis and worker).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CREATES = Number(process.env.BENCH_CREATES ?? 200);
const MODEL_MS = 2_000;
const KEEP_IF = 0.2;
const PATCHED = ['@remix-run/router', '@remix-run/react', 'react-router-dom'];

/**
 * A folder whose node_modules links every package of this one, but for the patched packages,
 * which are copies with the patches reversed when `unpatched`; the build is copied in, so that
 * everything it imports resolves there (node runs with --preserve-symlinks).
 */
function twin(name: string, unpatched: boolean): string {
  const dir = path.join(os.tmpdir(), `coursegen-bench-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  const real = path.resolve('node_modules');
  const link = (entry: string) =>
    fs.symlinkSync(path.join(real, entry), path.join(modules, entry), 'dir');
  for (const entry of fs.readdirSync(real)) {
    if (entry.startsWith('.')) continue;
    if (!entry.startsWith('@')) {
      if (!(unpatched && PATCHED.includes(entry))) link(entry);
      continue;
    }
    fs.mkdirSync(path.join(modules, entry));
    for (const scoped of fs.readdirSync(path.join(real, entry))) {
      const name = `${entry}/${scoped}`;
      if (!(unpatched && PATCHED.includes(name))) link(name);
    }
  }
  if (unpatched) {
    for (const name of PATCHED)
      fs.cpSync(path.join(real, name), path.join(modules, name), { recursive: true });
    fs.cpSync('patches', path.join(dir, 'patches'), { recursive: true });
    fs.copyFileSync('package.json', path.join(dir, 'package.json'));
    execFileSync(path.join(real, '.bin', 'patch-package'), ['--reverse'], {
      cwd: dir,
      stdio: 'ignore',
    });
  }
  fs.cpSync('build', path.join(dir, 'build'), { recursive: true });
  return dir;
}

interface Verdict {
  name: string;
  measure: string;
  with: number;
  without: number;
  unit: string;
}

/** Alternating rounds of `measure` against the process with and the one without. */
async function sideBySide(
  name: string,
  measure: string,
  unit: string,
  withIt: WebProcess,
  withoutIt: WebProcess,
  run: (web: WebProcess) => Promise<number>,
): Promise<Verdict> {
  await run(withIt);
  await run(withoutIt);
  const results = { with: [] as number[], without: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 ? (['without', 'with'] as const) : (['with', 'without'] as const);
    for (const which of order)
      results[which].push(await run(which === 'with' ? withIt : withoutIt));
  }
  const verdict = {
    name,
    measure,
    unit,
    with: median(results.with),
    without: median(results.without),
  };
  console.log(
    `${name}: ${measure} with ${verdict.with.toFixed(1)} ${unit}, without ` +
      `${verdict.without.toFixed(1)} ${unit} (rounds: ${results.with.map((v) => v.toFixed(0)).join(' ')} | ` +
      `${results.without.map((v) => v.toFixed(0)).join(' ')})`,
  );
  return verdict;
}

const cpuPerRequest = (path: string, cookie?: string) => async (web: WebProcess) =>
  (
    await load(`${web.base}${path}`, {
      cookie,
      pid: web.child.pid,
      seconds: SECONDS,
      connections: 4,
    })
  ).cpuUs!;

async function main() {
  ensureBuild((line) => console.log(line));
  const app = await startApp({
    MOCK_AI_LATENCY_MS: String(MODEL_MS),
    MOCK_AI_STREAM_CHUNK_MS: '0',
    AI_REQUESTS_PER_HOUR: '100000',
    LOG_LEVEL: 'error',
  });
  const webs: WebProcess[] = [];
  const started = async (root: string, env?: Record<string, string>) => {
    const web = await webProcess(app, root, env);
    webs.push(web);
    return web;
  };
  const verdicts: Verdict[] = [];
  try {
    console.log(
      `Load average before: ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    const patchedRoot = twin('patched', false);
    const unpatchedRoot = twin('unpatched', true);
    verdicts.push(
      await sideBySide(
        'patches/ (ADR 25)',
        'CPU per GET /',
        'µs',
        await started(patchedRoot),
        await started(unpatchedRoot),
        cpuPerRequest('/'),
      ),
    );

    const member = await createMember(app.dataDir);
    for (let i = 0; i < 20; i += 1)
      await insertCourse(app.dataDir, member.id, {
        mainTopic: `Course ${i}`,
        lessons: 4,
        allDone: false,
      });
    const cookie = `__session=${await sessionCookieValue(app.dataDir, member)}`;
    verdicts.push(
      await sideBySide(
        'direct JSON routes (ADR 27)',
        'CPU per GET /api/courses',
        'µs',
        await started(patchedRoot),
        await started(patchedRoot, { BENCH_WITHOUT: 'direct-json' }),
        cpuPerRequest('/api/courses', cookie),
      ),
    );

    let burst = 0;
    verdicts.push(
      await sideBySide(
        'write turns (ADR 26)',
        `p99 of GET / during ${CREATES} simultaneous POST /create`,
        'ms',
        await started(patchedRoot),
        await started(patchedRoot, { BENCH_WITHOUT: 'write-turns' }),
        async (web) => {
          burst += 1;
          const clients = await Promise.all(
            Array.from({ length: CREATES }, () => memberClient(app, 'free')),
          );
          const form = (i: number) => {
            const body = new URLSearchParams({ topic: `Burst ${burst} ${i}`, topicCount: '5' });
            body.append('type', 'text');
            body.append('subtopic', 'Foundations');
            return body;
          };
          const creates = Promise.all(
            clients.map((client, i) => post({ ...client, base: web.base }, '/create', form(i))),
          );
          const sampler = startSampler(`${web.base}/`, 20);
          await creates;
          const samples = await sampler.stop();
          // Let the worker write this burst's outlines before the next round.
          await new Promise((resolve) => setTimeout(resolve, Math.ceil(CREATES / 50) * MODEL_MS));
          samples.sort((a, b) => a - b);
          return samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))]!;
        },
      ),
    );
  } finally {
    for (const web of webs) web.child.kill('SIGTERM');
    await closeAppDatabases();
    await app.stop();
  }

  console.log(
    `\n${ROUNDS} alternating rounds, medians; kept if it buys at least ${KEEP_IF * 100}%:`,
  );
  console.log('| Work-around | Measure | With | Without | Buys | Verdict |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const verdict of verdicts) {
    const buys = 1 - verdict.with / verdict.without;
    console.log(
      `| ${verdict.name} | ${verdict.measure} | ${verdict.with.toFixed(1)} ${verdict.unit} | ` +
        `${verdict.without.toFixed(1)} ${verdict.unit} | ${(buys * 100).toFixed(0)}% | ` +
        `${buys >= KEEP_IF ? 'keep' : 'remove'} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
