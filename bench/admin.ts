import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import { ensureBuild, SERVER_BUILD } from '../scripts/ensure-build.mjs';

/**
 * `npm run bench -- admin`: the admin panel on a big install. Seeds 10,000
 * members (1,000 paid), 100,000 courses and 5,000 contact messages in a
 * temporary database, then times the production server's full render of the
 * dashboard and of each table's first and a late page (in process, signed in
 * as an admin), interleaved, and prints median and p95 against the targets
 * (dashboard under 50 ms, tables under 20 ms at p95).
 */
const MEMBERS = 10_000;
const COURSES = 100_000;
const CONTACTS = 5_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-bench-admin-'));
Object.assign(process.env, {
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DEMO_MODE: 'true',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  REDIS_PREFIX: `coursegen-bench-admin-${process.pid}`,
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;

async function main() {
  ensureBuild((line) => console.log(line));
  const { databaseFile, migrateDatabase, openDatabase } = await import('../db/connection');
  const { closeDatabase } = await import('~/utils/database.server');
  // Migrated and seeded on a connection of its own; the app reads through its data layer.
  const seeding = openDatabase(databaseFile(dataDir));
  const { createSession } = await import('~/utils/auth.server');
  migrateDatabase(seeding);
  const sqlite = seeding.$client;

  console.log(`Seeding ${MEMBERS} members, ${COURSES} courses, ${CONTACTS} contacts...`);
  const now = Date.now();
  const userIds: string[] = [];
  sqlite.transaction(() => {
    const addUser = sqlite.prepare(
      `insert into users (id, email, name, password_hash, plan, role, created_at, updated_at) values (?, ?, ?, 'x', ?, ?, ?, ?)`,
    );
    for (let i = 0; i < MEMBERS; i += 1) {
      const id = randomBytes(12).toString('base64url');
      userIds.push(id);
      const created = now - i * 60_000;
      addUser.run(
        id,
        `member${i}@bench.test`,
        `Member ${i}`,
        i % 10 === 0 ? 'monthly' : 'free',
        i === 0 ? 'admin' : 'member',
        created,
        created,
      );
    }
    const addCourse = sqlite.prepare(
      `insert into courses (id, user_id, main_topic, type, created_at, updated_at) values (?, ?, ?, ?, ?, ?)`,
    );
    for (let i = 0; i < COURSES; i += 1) {
      const created = now - i * 6_000;
      addCourse.run(
        randomBytes(12).toString('base64url'),
        userIds[i % MEMBERS],
        `Course ${i}`,
        i % 3 ? 'text' : 'video',
        created,
        created,
      );
    }
    const addContact = sqlite.prepare(
      `insert into contacts (id, first_name, last_name, email, phone, message, created_at) values (?, 'Ann', 'Lee', ?, '12345', 'Hello', ?)`,
    );
    for (let i = 0; i < CONTACTS; i += 1)
      addContact.run(randomBytes(12).toString('base64url'), `c${i}@bench.test`, now - i * 1000);
  })();
  sqlite.exec('analyze');

  const cookie = (await createSession(userIds[0]!)).split(';')[0]!;
  const build = (await import(path.resolve(SERVER_BUILD))) as ServerBuild;
  const handle = createRequestHandler(build, 'production');
  const get = async (url: string) => {
    const response = await handle(
      new Request(`http://localhost${url}`, { headers: { Cookie: cookie } }),
      {
        clientIp: '127.0.0.1',
      },
    );
    await response.text();
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  };

  const pages: [string, string, number][] = [
    ['dashboard', '/dashboard', 50],
    ['users, first page', '/users', 20],
    ['users, page 300', '/users?page=300', 20],
    ['paid users, first page', '/paid', 20],
    ['courses, first page', '/courses', 20],
    ['courses, page 3000', '/courses?page=3000', 20],
    ['contacts, first page', '/contacts', 20],
    ['contacts, page 150', '/contacts?page=150', 20],
  ];
  for (const [, url] of pages) for (let i = 0; i < 5; i += 1) await get(url);
  const times = new Map(pages.map(([name]) => [name, [] as number[]]));
  // Interleaved: each round visits every page once, so noise spreads over all of them.
  for (let round = 0; round < RUNS; round += 1)
    for (const [name, url] of pages) {
      const start = performance.now();
      await get(url);
      times.get(name)!.push(performance.now() - start);
    }

  console.log(`Admin pages, server time of a full render (${RUNS} interleaved rounds):`);
  let missed = 0;
  for (const [name, , target] of pages) {
    const sorted = times.get(name)!.sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    if (p95 > target) missed += 1;
    console.log(
      `  ${name.padEnd(24)} median ${percentile(sorted, 50).toFixed(2).padStart(7)} ms  p95 ${p95.toFixed(2).padStart(7)} ms  (target p95 < ${target} ms)${p95 > target ? '  MISSED' : ''}`,
    );
  }
  seeding.$client.close();
  await closeDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(missed > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
