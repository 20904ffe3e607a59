import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { createTestDatabase } from '../tests/support/postgres';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../tests/support/redis';
import {
  FIXTURES_DIR,
  readPostgresTables,
  readSqliteTables,
  rowCounts,
  type Dialect,
  type FixtureDatabase,
  type FixtureManifest,
} from '../tests/support/upgrade-fixture';
import { runPostgresTool } from './lib/postgres-tools';
import { freePort } from './lib/system';
import { tellStory, type StoryAccount } from './lib/upgrade-story';

/**
 * `npm run fixture:upgrade -- <tag>` (docs/releasing.md, ADR 0050): the databases a release
 * leaves behind, for tests/integration/upgrade.test.ts to upgrade. It checks the release out in a
 * temporary git worktree, installs its dependencies (or links this checkout's when its lock file
 * asks for nothing else), builds it, and runs its own start in demo mode twice, on a fresh SQLite
 * file and on a fresh PostgreSQL database, telling the story of scripts/lib/upgrade-story.ts
 * through its HTTP API and pages. Then it stops the app and writes, under
 * tests/fixtures/upgrade/<version>/, the SQLite database (VACUUM INTO: one file, no -wal), a plain
 * pg_dump, and fixture.json: the commit, who can sign in with which password, and each table's
 * row count. Needs Redis and PostgreSQL as the tests do (REDIS_URL, TEST_DATABASE_URL).
 */
const ADMIN: StoryAccount = {
  name: 'Fixture Admin',
  email: 'admin@fixture.example',
  password: 'admin-fixture-password',
};

const say = (line: string) => console.log(`[fixture] ${line}`);

class FixtureError extends Error {}

function fail(message: string): never {
  throw new FixtureError(message);
}

function run(command: string, args: string[], cwd = process.cwd()): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    fail(`${command} ${args.join(' ')} failed:\n${result.stderr || result.stdout}`);
  return result.stdout.trim();
}

interface Lock {
  packages: Record<string, { version?: string }>;
}

/**
 * Whether this checkout's node_modules serves the release: every package its lock file names is
 * installed here in the same version, and the same patches were applied.
 */
function sharesDependencies(commit: string): boolean {
  const theirs = JSON.parse(run('git', ['show', `${commit}:package-lock.json`])) as Lock;
  const ours = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as Lock;
  const samePackages = Object.entries(theirs.packages).every(
    ([where, entry]) => where === '' || ours.packages[where]?.version === entry.version,
  );
  const samePatches =
    spawnSync('git', ['diff', '--quiet', commit, 'HEAD', '--', 'patches']).status === 0;
  return samePackages && samePatches;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The release's start on `database`, in demo mode, until it answers and says it is running. */
async function startRelease(checkout: string, env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['build/bin/start.js'], {
    cwd: checkout,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: base,
      DEMO_MODE: 'true',
      ANTHROPIC_API_KEY: '',
      SMTP_URL: '',
      ADMIN_NAME: ADMIN.name,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      WEB_CONCURRENCY: '1',
      SIGNUPS_PER_IP_PER_HOUR: '1000',
      AI_REQUESTS_PER_HOUR: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) fail(`The release's start exited:\n${output}`);
    const healthy = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy && output.includes('CourseGen is running')) break;
    if (Date.now() > deadline) fail(`The release did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { base, child, output: () => output };
}

/** The story told to the release on one database, and that database written into `target`. */
async function record(
  checkout: string,
  dialect: Dialect,
  target: string,
): Promise<FixtureDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-fixture-'));
  const redisPrefix = `coursegen-fixture-${randomBytes(4).toString('hex')}`;
  const database = dialect === 'postgres' ? await createTestDatabase('fixture') : undefined;
  const release = await startRelease(checkout, {
    DATA_DIR: dataDir,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    ...(database
      ? { DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('hex') }
      : {}),
  });
  try {
    say(`${dialect}: telling the story at ${release.base}`);
    const story = await tellStory(release.base, ADMIN).catch((error: unknown) =>
      fail(`${String(error)}\nThe release's output:\n${release.output().slice(-5000)}`),
    );
    release.child.kill('SIGTERM');
    await waitForExit(release.child);
    if (database) {
      const file = 'coursegen.sql';
      const dump = runPostgresTool(
        'pg_dump',
        ['--format=plain', '--no-owner', '--no-privileges'],
        database.url,
      );
      // pg_dump's \restrict guard (15.14 on) with its random key: psql releases before it refuse
      // the whole file, and this one is ours.
      fs.writeFileSync(path.join(target, file), dump.replace(/^\\(un)?restrict .*\n/gm, ''));
      return { file, story, rows: rowCounts(await readPostgresTables(database.url)) };
    }
    const file = 'coursegen.sqlite';
    const written = new Database(path.join(dataDir, 'coursegen.sqlite'));
    written.prepare('VACUUM INTO ?').run(path.join(target, file));
    written.close();
    return { file, story, rows: rowCounts(readSqliteTables(path.join(target, file))) };
  } finally {
    if (release.child.exitCode === null && release.child.signalCode === null) {
      release.child.kill('SIGKILL');
      await waitForExit(release.child);
    }
    await deleteRedisPrefix(redisPrefix);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(ref: string | undefined) {
  if (!ref)
    fail('Usage: npm run fixture:upgrade -- <the release’s git tag or commit>, e.g. v1.0.0');
  const commit = run('git', ['rev-parse', '--verify', `${ref}^{commit}`]);
  const { version } = JSON.parse(run('git', ['show', `${commit}:package.json`])) as {
    version: string;
  };
  const target = path.join(FIXTURES_DIR, version);
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), `coursegen-${version}-`));
  say(`${version} (${commit.slice(0, 7)}) checked out in ${checkout}`);
  run('git', ['worktree', 'add', '--detach', checkout, commit]);
  try {
    if (sharesDependencies(commit)) {
      say('its lock file asks for nothing this checkout lacks: linking node_modules');
      fs.symlinkSync(path.resolve('node_modules'), path.join(checkout, 'node_modules'));
    } else {
      say('installing its dependencies');
      run('npm', ['install', '--no-audit', '--no-fund'], checkout);
    }
    say('building it');
    run('npm', ['run', 'build', '--', '--quiet'], checkout);
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target, { recursive: true });
    const sqlite = await record(checkout, 'sqlite', target);
    const postgres = await record(checkout, 'postgres', target);
    const manifest: FixtureManifest = {
      version,
      commit,
      made: new Date().toISOString(),
      databases: { sqlite, postgres },
    };
    fs.writeFileSync(path.join(target, 'fixture.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    say(`written: ${path.relative(process.cwd(), target)}`);
  } finally {
    run('git', ['worktree', 'remove', '--force', checkout]);
  }
}

try {
  await main(process.argv[2]);
} catch (error) {
  console.error(`[fixture] ${error instanceof FixtureError ? error.message : String(error)}`);
  process.exitCode = 1;
}
