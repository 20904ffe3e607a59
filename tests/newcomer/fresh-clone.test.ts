import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/system';
import { createCourse, firstWrittenLesson, generateCourse, signUp } from '../support/person-http';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import {
  groupMembers,
  onlyEnv,
  spawnLogged,
  until,
  type LoggedProcess,
} from '../support/processes';
import { deleteRedisPrefix } from '../support/redis';

/**
 * The README's Quick start on a fresh clone, as a newcomer runs it: a `git clone` of this working
 * tree (no data/, no build/), then the Quick start's `npm start` with nothing set but PORT (a
 * free one), and on PostgreSQL with only the variables docs/self-hosting.md names for it, DATABASE_URL and
 * SESSION_SECRET. Each goes all the way to a signed-up member reading a written lesson (demo
 * mode: no API key), then Ctrl-C stops everything.
 *
 * Instead of the Quick start's `npm install`, the clone's node_modules is a link to this
 * project's: installing takes minutes and is CI's own first step, so it is tested there. The
 * first `npm start` builds the clone, as it builds any fresh clone.
 */
const root = process.cwd();
const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-clone-'));
const started: LoggedProcess[] = [];
let database: TestDatabase | undefined;

/** The Quick start's command after `npm install &&`: `npm start`. */
function quickStartCommand(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## Quick start$/m)[1]!.split(/^## /m)[0]!;
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const line = block.split('\n').find((candidate) => /npm start/.test(candidate))!;
  const [install, command] = line
    .replace(/#.*$/, '')
    .split('&&')
    .map((part) => part.trim());
  expect(install).toBe('npm install');
  return command!.split(/\s+/);
}

/** The working tree as a fresh clone: HEAD cloned, then what is not committed yet put on top. */
function cloneWorkingTree() {
  execFileSync('git', ['clone', '--quiet', root, clone]);
  const changes = execFileSync('git', ['diff', 'HEAD', '--binary'], { cwd: root });
  if (changes.length > 0)
    execFileSync('git', ['apply', '--binary'], { cwd: clone, input: changes });
  const untracked = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  });
  for (const file of untracked.split('\0').filter(Boolean)) {
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(clone, file));
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'));
}

beforeAll(() => {
  cloneWorkingTree();
  expect(fs.existsSync(path.join(clone, 'data'))).toBe(false);
  expect(fs.existsSync(path.join(clone, 'build'))).toBe(false);
});

/** The install ids the clone's starts made: the app's default Redis prefix is made of one. */
async function installIds(): Promise<string[]> {
  const ids: string[] = [];
  const sqliteId = path.join(clone, 'data', 'install-id');
  if (fs.existsSync(sqliteId)) ids.push(fs.readFileSync(sqliteId, 'utf8').trim());
  if (database) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ value: string }>(
        "SELECT value FROM settings WHERE key = 'install_id'",
      );
      ids.push(...rows.map((row) => row.value));
    } catch {
      // Not migrated: the start stopped before it.
    } finally {
      await client.end();
    }
  }
  return ids;
}

afterAll(async () => {
  for (const app of started) await app.stop('SIGKILL');
  for (const id of await installIds()) await deleteRedisPrefix(`coursegen-${id}`);
  await database?.drop();
  fs.rmSync(clone, { recursive: true, force: true });
});

/** `npm start` in the clone, as typed in a terminal, until it says it is running. */
async function quickStart(variables: Record<string, string>) {
  const port = await freePort();
  const [command, ...args] = quickStartCommand();
  const app = spawnLogged(command!, args, {
    cwd: clone,
    env: onlyEnv({ HOME: os.homedir(), PORT: String(port), ...variables }),
    // Its own process group, as a terminal's job: Ctrl-C reaches all of it.
    detached: true,
  });
  started.push(app);
  await app.waitFor('CourseGen is running', 240_000);
  expect(app.output()).toContain('demo mode');
  return { app, baseURL: `http://127.0.0.1:${port}` };
}

/** The newcomer's first course, to its first written lesson. */
async function firstLesson(baseURL: string) {
  const person = await signUp(baseURL);
  const outlineId = await createCourse(baseURL, person);
  const courseId = await generateCourse(baseURL, person, outlineId);
  return firstWrittenLesson(baseURL, person, courseId);
}

/** Ctrl-C: everything stops, and nothing of it is left running. */
async function pressCtrlC(app: LoggedProcess) {
  await app.stop('SIGINT');
  expect((await app.exited).code, app.output()).toBe(0);
  await until(() => groupMembers(app.child.pid!).length === 0, 10_000);
}

describe("the README's Quick start on a fresh clone", () => {
  it('starts on PostgreSQL with only DATABASE_URL and SESSION_SECRET, to a written lesson', async () => {
    database = await createTestDatabase('fresh_clone');
    const { app, baseURL } = await quickStart({
      DATABASE_URL: database.url,
      SESSION_SECRET: randomBytes(32).toString('hex'),
    });
    const lesson = await firstLesson(baseURL);
    expect(lesson.text.length).toBeGreaterThan(40);
    await pressCtrlC(app);
    // Nothing of it is kept in the clone's folder: it is all in PostgreSQL and the Redis it
    // found (a private redis-server, when none answers on 127.0.0.1:6379, keeps its data there).
    if (!app.output().includes('Starting a private redis-server'))
      expect(fs.existsSync(path.join(clone, 'data'))).toBe(false);
  }, 360_000);

  it('starts on SQLite with nothing set, to a written lesson', async () => {
    const { app, baseURL } = await quickStart({});
    const lesson = await firstLesson(baseURL);
    expect(lesson.text.length).toBeGreaterThan(40);
    await pressCtrlC(app);
  }, 360_000);
});
