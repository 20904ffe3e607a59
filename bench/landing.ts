import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import { ensureBuild, SERVER_BUILD } from '../scripts/ensure-build.mjs';

/**
 * `npm run bench:landing`: what the landing page costs a visitor.
 *  1. the JavaScript and CSS that `/` makes the browser load, from the
 *     production build: raw and gzip bytes (gzip level 6, as the web server's
 *     compression sends them), per file and in total;
 *  2. the server time to render `/` (the Remix handler in process, body read
 *     to the end), over many requests after a warm-up.
 * Exits with 1 if the landing page's JavaScript is over its budget.
 */
const JS_BUDGET_GZIP = 100 * 1024;
const WARMUP = 30;
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-bench-'));
Object.assign(process.env, {
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DEMO_MODE: 'true',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  REDIS_PREFIX: `coursegen-bench-${process.pid}`,
});

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number) => `${value.toFixed(2)} ms`;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** Every script and stylesheet the landing page's HTML makes the browser fetch. */
function assetsOf(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+href="(\/assets\/[^"]+\.(?:js|css))"/g))
    found.add(match[1]!);
  for (const match of html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g))
    for (const imported of match[1]!.matchAll(/["'](\/assets\/[^"']+\.js)["']/g))
      found.add(imported[1]!);
  return [...found].sort();
}

async function main() {
  ensureBuild((line) => console.log(line));
  const { databaseFile, migrateDatabase, openDatabase } = await import('../db/connection');
  const { closeDatabase } = await import('~/utils/database.server');
  // Migrated and seeded on a connection of its own; the app reads through its data layer.
  const seeding = openDatabase(databaseFile(dataDir));
  migrateDatabase(seeding);

  const build = (await import(path.resolve(SERVER_BUILD))) as ServerBuild;
  const handle = createRequestHandler(build, 'production');
  const render = async () => {
    const response = await handle(new Request('http://localhost/'), { clientIp: '127.0.0.1' });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET / answered ${response.status}`);
    return body;
  };

  const html = await render();
  const rows = assetsOf(html).map((href) => {
    const bytes = fs.readFileSync(path.join('build', 'client', href));
    return {
      href,
      kind: href.endsWith('.css') ? 'css' : 'js',
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 6 }).length,
    };
  });
  const total = (kind: string) =>
    rows
      .filter((row) => row.kind === kind)
      .reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), {
        raw: 0,
        gzip: 0,
      });

  console.log('Landing page assets (production build):');
  for (const row of rows)
    console.log(
      `  ${row.href.padEnd(48)} ${kib(row.raw).padStart(10)} raw ${kib(row.gzip).padStart(10)} gzip`,
    );
  const js = total('js');
  const css = total('css');
  console.log(
    `  JavaScript: ${rows.filter((r) => r.kind === 'js').length} files, ${kib(js.raw)} raw, ${kib(js.gzip)} gzip (budget ${kib(JS_BUDGET_GZIP)} gzip)`,
  );
  console.log(
    `  CSS:        ${rows.filter((r) => r.kind === 'css').length} files, ${kib(css.raw)} raw, ${kib(css.gzip)} gzip`,
  );
  console.log(
    `  HTML of /:  ${kib(Buffer.byteLength(html))} raw, ${kib(gzipSync(html).length)} gzip`,
  );

  for (let i = 0; i < WARMUP; i += 1) await render();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await render();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  console.log(`Server render of / (${RUNS} requests after ${WARMUP} warm-up, in process):`);
  console.log(
    `  median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, mean ${ms(mean)}, max ${ms(times.at(-1)!)}`,
  );

  seeding.$client.close();
  await closeDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const ok = js.gzip < JS_BUDGET_GZIP;
  console.log(ok ? 'Landing JavaScript is within budget.' : 'Landing JavaScript is OVER budget.');
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
