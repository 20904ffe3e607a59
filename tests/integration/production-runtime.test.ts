import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/system';
import { childPids, groupMembers, until } from '../support/processes';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../support/redis';

/**
 * The app as the Docker image runs it (ADR 0028, 0029): the image's files only (the build,
 * production packages, migrations, public files, fonts) started with plain `node
 * build/bin/start.js`, with no TypeScript tooling anywhere in reach, and stopped the way
 * `docker stop` stops it: SIGTERM to the start, SIGKILL 10 s later.
 */
const DOCKER_GRACE_MS = 10_000;
const root = process.cwd();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-image-'));
const image = path.join(scratch, 'app');
const prefixes: string[] = [];
const groups: number[] = [];

/** The files the Dockerfile's runtime stage copies into /app (scripts/docker-image.test.ts). */
function assembleImage() {
  fs.mkdirSync(path.join(image, 'app', 'assets'), { recursive: true });
  for (const file of ['build', 'migrations', 'public', 'app/assets/fonts', 'package.json'])
    fs.cpSync(path.join(root, file), path.join(image, file), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(image, 'node_modules'));
  // Every process of the app fails loudly if anything loads a development tool: tsx, Vite,
  // esbuild, TypeScript or Remix's compiler.
  fs.writeFileSync(
    path.join(scratch, 'no-dev-tools.mjs'),
    `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
  export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    if (/node_modules\\\\/(tsx|vite|esbuild|typescript|@remix-run\\\\/dev)\\\\//.test(resolved.url))
      throw new Error('a development tool was loaded at run time: ' + resolved.url);
    return resolved;
  }\`));
`,
  );
}
assembleImage();

afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
afterAll(async () => {
  for (const prefix of prefixes) await deleteRedisPrefix(prefix);
  fs.rmSync(scratch, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node build/bin/start.js` in the image folder, in its own process group. */
/**
 * `docker run --read-only`: the image's files (and the packages they use) mounted read-only, in
 * a mount namespace of the start's own, so only DATA_DIR and /tmp can be written.
 */
function readOnlyCommand(): [string, string[]] {
  const readOnly = [image, path.join(root, 'node_modules')]
    .map((dir) => `mount --bind ${dir} ${dir} && mount -o remount,bind,ro ${dir}`)
    .join(' && ');
  return [
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      `${readOnly} && exec "$0" build/bin/start.js`,
      process.execPath,
    ],
  ];
}

/** Whether this machine lets a test make a mount namespace (root with CAP_SYS_ADMIN). */
const canMountReadOnly =
  spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']).status === 0;

async function startImage(
  dataDir: string,
  env: Record<string, string> = {},
  { readOnly = false } = {},
): Promise<Started> {
  const port = env.PORT ?? String(await freePort());
  const prefix = env.REDIS_PREFIX ?? `coursegen-image-${randomBytes(4).toString('hex')}`;
  prefixes.push(prefix);
  let output = '';
  const [command, args] = readOnly ? readOnlyCommand() : [process.execPath, ['build/bin/start.js']];
  const child = spawn(command, args, {
    cwd: image,
    env: {
      // No node_modules/.bin on the PATH, and the guard against development tools in every
      // process the start runs.
      PATH: (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter((dir) => !dir.includes('node_modules'))
        .join(path.delimiter),
      HOME: process.env.HOME,
      NODE_OPTIONS: `--import=${path.join(scratch, 'no-dev-tools.mjs')}`,
      NODE_ENV: 'production',
      PORT: port,
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_EMAIL: 'admin@image.test',
      ADMIN_PASSWORD: 'admin-password-123',
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(child.pid!);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const started = { child, base: `http://127.0.0.1:${port}`, output: () => output, exit };
  await until(() => {
    if (child.exitCode !== null) throw new Error(`the start exited:\n${output}`);
    return output.includes('CourseGen is running');
  }, 60_000);
  return started;
}

/** As `docker stop` does: SIGTERM, then SIGKILL after the grace. Resolves with how it ended. */
async function dockerStop(started: Started) {
  const sent = Date.now();
  started.child.kill('SIGTERM');
  const killer = setTimeout(() => started.child.kill('SIGKILL'), DOCKER_GRACE_MS);
  const { code, signal } = await started.exit;
  clearTimeout(killer);
  await until(() => groupMembers(started.child.pid!).length === 0, 5_000);
  return { code, signal, ms: Date.now() - sent };
}

/** A member signs up through the API, then starts a course and presses Generate Course. */
async function signUpAndGenerate(base: string) {
  const signUp = await fetch(`${base}/api/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: `learner-${randomBytes(4).toString('hex')}@example.com`,
      mName: 'Learner',
      password: 'a-long-enough-password',
      type: 'free',
    }),
  });
  expect(signUp.status, await signUp.clone().text()).toBe(200);
  const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
  const form = {
    Cookie: cookie,
    Origin: base,
    'Content-Type': 'application/x-www-form-urlencoded',
  };
  const created = await fetch(`${base}/create`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({
      topic: 'Knots',
      subtopic: 'Bowline',
      topicCount: '5',
      type: 'text',
    }),
    redirect: 'manual',
  });
  expect(created.status).toBe(302);
  const outlineId = created.headers.get('location')!.split('/topics/')[1]!;
  await until(async () => {
    const outline = await fetch(`${base}/status/outline/${outlineId}`, {
      headers: { Cookie: cookie },
    });
    return ((await outline.json()) as { state: string }).state === 'done';
  }, 60_000);
  const generated = await fetch(`${base}/topics/${outlineId}`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({}),
    redirect: 'manual',
  });
  expect(generated.status).toBe(302);
  return { cookie, courseId: generated.headers.get('location')!.split('/course/')[1]! };
}

function lessonsOf(dataDir: string, courseId: string) {
  const db = new Database(path.join(dataDir, 'coursegen.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT id, state FROM lessons WHERE course_id = ? ORDER BY ordinal')
      .all(courseId) as { id: string; state: string }[];
  } finally {
    db.close();
  }
}

async function healthz(base: string) {
  const response = await fetch(`${base}/healthz`);
  return {
    status: response.status,
    body: (await response.json()) as { restarts?: Record<string, number>; pid: number },
  };
}

describe('the production runtime', () => {
  // Only a machine that refuses mount namespaces skips it (the project's own CI does not).
  it.runIf(canMountReadOnly)(
    'runs the image read-only with plain node: a member signs up and reads a written lesson',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
      const app = await startImage(dataDir, {}, { readOnly: true });
      try {
        const { cookie, courseId } = await signUpAndGenerate(app.base);
        await until(() => lessonsOf(dataDir, courseId)[0]?.state === 'done', 60_000);
        const page = await fetch(`${app.base}/course/${courseId}`, { headers: { Cookie: cookie } });
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('Knots');
        expect(app.output()).not.toMatch(/development tool was loaded|read-only file system/i);
      } finally {
        expect((await dockerStop(app)).code).toBe(0);
      }
    },
    120_000,
  );

  it('docker stop with lessons being written exits 0 within the grace; they finish after the next start, each stored once', async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
    // Each AI call takes 8 s: longer than the shutdown limit, so lessons are cut off by the stop.
    const prefix = `coursegen-image-${randomBytes(4).toString('hex')}`;
    const first = await startImage(dataDir, { MOCK_AI_LATENCY_MS: '8000', REDIS_PREFIX: prefix });
    const { courseId } = await signUpAndGenerate(first.base);
    await until(
      () => lessonsOf(dataDir, courseId).some((lesson) => lesson.state === 'running'),
      30_000,
    );
    const stopped = await dockerStop(first);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(DOCKER_GRACE_MS);
    expect(first.output()).toContain('"worker.handing_back"');
    expect(lessonsOf(dataDir, courseId).some((lesson) => lesson.state !== 'done')).toBe(true);

    const second = await startImage(dataDir, { REDIS_PREFIX: prefix });
    try {
      await until(
        () => lessonsOf(dataDir, courseId).every((lesson) => lesson.state === 'done'),
        90_000,
      );
    } finally {
      await dockerStop(second);
    }
    // Every lesson stored exactly once over the two runs.
    const stores = [first, second]
      .flatMap((run) => [
        ...run.output().matchAll(/"event":"lesson\.stored".*?"lessonId":"?(\w+)/g),
      ])
      .map(([, lessonId]) => lessonId);
    const lessons = lessonsOf(dataDir, courseId).map((lesson) => String(lesson.id));
    expect(stores.sort()).toEqual(lessons.sort());
  }, 240_000);

  it('a crashed worker or private Redis is started again while the web process serves', async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
    const app = await startImage(dataDir, { REDIS_URL: '', REDIS_PRIVATE: 'true' });
    try {
      const start = app.child.pid!;
      const [redis] = childPids(start, 'redis-server');
      const [worker] = childPids(start, 'build/bin/worker.js');
      expect(redis).toBeGreaterThan(0);
      expect(worker).toBeGreaterThan(0);

      process.kill(worker!, 'SIGKILL');
      await until(() => app.output().includes('"process":"worker"'), 5_000);
      // The web process answers meanwhile; the worker is back with its count on /healthz.
      expect((await healthz(app.base)).status).toBe(200);
      await until(async () => (await healthz(app.base)).body.restarts?.worker === 1, 30_000);

      process.kill(redis!, 'SIGKILL');
      await until(async () => (await healthz(app.base)).body.restarts?.redis === 1, 30_000);
      await until(async () => (await healthz(app.base)).status === 200, 30_000);

      // Work goes on after both: a new course is written.
      const { courseId } = await signUpAndGenerate(app.base);
      await until(() => lessonsOf(dataDir, courseId)[0]?.state === 'done', 60_000);
    } finally {
      expect((await dockerStop(app)).code).toBe(0);
    }
  }, 180_000);

  it('a private Redis that cannot be brought back stops the start with exit code 1', async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
    const app = await startImage(dataDir, { REDIS_URL: '', REDIS_PRIVATE: 'true' });
    // Its data folder made unusable: every restart of redis-server fails at once.
    fs.rmSync(path.join(dataDir, 'redis'), { recursive: true, force: true });
    fs.writeFileSync(path.join(dataDir, 'redis'), 'not a folder');
    const [redis] = childPids(app.child.pid!, 'redis-server');
    process.kill(redis!, 'SIGKILL');
    const { code } = await app.exit;
    expect(code).toBe(1);
    expect(app.output()).toContain('"process.gave_up"');
    await until(() => groupMembers(app.child.pid!).length === 0, 10_000);
  }, 180_000);
});
