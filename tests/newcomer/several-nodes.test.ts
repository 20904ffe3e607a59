import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isRoot } from '../../scripts/lib/system';
import {
  composeServices,
  IMAGE_USER,
  imageAppFolder,
  imageCommand,
  imageEnvironment,
  runHealthCheck,
  substitute,
  tmpfsFolder,
  type ComposeService,
} from '../support/container-files';
import {
  createCourse,
  firstWrittenLesson,
  generateCourse,
  lessonText,
  signUp,
} from '../support/person-http';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { onlyEnv, spawnLogged, type LoggedProcess } from '../support/processes';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../support/redis';

/**
 * docker-compose.several-nodes.yml as Compose runs it, with processes for containers (Docker
 * cannot run here): every CourseGen service of the file is a node, run with the image's command
 * and the image's environment (the Dockerfile's ENV) under the service's own, on one PostgreSQL
 * database and one Redis, each with a scratch /data made as the file makes it. The nodes, their
 * PROCESSES and their environment come from the file; a key this test does not know how to
 * carry over fails it, so the file and the test cannot drift apart.
 *
 * Run as root (CI is), the nodes run as the image's user (uid 1000), so a /data that user cannot
 * write fails here as in Docker. Run as another user, who cannot give a folder away, each /data
 * is made with the rights the image's user would have on it, given to this user instead.
 */
const services = composeServices();
const image = imageEnvironment();
const nodeServices = Object.entries(services).filter(
  ([, service]) => service.image === 'coursegen',
);

/**
 * The keys of a node's service this test knows. `restart` and `depends_on` ask nothing of it
 * (each node starts once, PostgreSQL and Redis already up); the others are carried over below.
 */
const SERVICE_KEYS = new Set([
  'image',
  'restart',
  'depends_on',
  'tmpfs',
  'environment',
  'ports',
  'healthcheck',
]);

/** The file's PostgreSQL here: a test database of the nodes' own. */
let database: TestDatabase;
const prefix = `coursegen-compose-${randomBytes(4).toString('hex')}`;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-compose-'));
fs.chmodSync(scratch, 0o755);
const given = {
  POSTGRES_PASSWORD: 'not-used-here',
  SESSION_SECRET: randomBytes(32).toString('hex'),
};

interface Node {
  name: string;
  processes: string;
  environment: Record<string, string>;
  dataDir: string;
  process?: LoggedProcess;
  healthChecked: boolean;
}
const nodes: Node[] = [];

/** The host and port a URL names, which must be a service of the file (`postgres`, `redis`). */
function serviceNamed(url: string, imagePrefix: string) {
  const host = new URL(url).hostname;
  expect(services[host]?.image, `${url} names the service ${host}`).toMatch(
    new RegExp(`^${imagePrefix}:`),
  );
}

/** /data as the file's tmpfs entry makes it, for this node. */
function scratchData(name: string, service: ComposeService, target: string) {
  const entry = service.tmpfs?.find((mount) => tmpfsFolder(mount).target === target);
  if (!entry) throw new Error(`${name}: ${target} is not a tmpfs; this test knows no other /data`);
  const folder = tmpfsFolder(entry);
  const dataDir = path.join(scratch, name, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(path.dirname(dataDir), 0o755);
  if (isRoot()) {
    fs.chownSync(dataDir, folder.uid, folder.gid);
    fs.chmodSync(dataDir, folder.mode);
  } else {
    // The image's user's rights on the folder, as this user's.
    const shift = folder.uid === IMAGE_USER.uid ? 6 : folder.gid === IMAGE_USER.gid ? 3 : 0;
    fs.chmodSync(dataDir, ((folder.mode >> shift) & 0o7) << 6);
  }
  return dataDir;
}

async function nodeEnvironment(name: string, service: ComposeService, dataDir: string) {
  const environment: Record<string, string> = { ...image };
  for (const [key, value] of Object.entries(service.environment ?? {}))
    environment[key] = substitute(String(value), given);
  const carried: Record<string, string> = {};
  for (const [key, value] of Object.entries(environment)) {
    switch (key) {
      case 'DATABASE_URL':
        serviceNamed(value, 'postgres');
        carried[key] = database.url;
        break;
      case 'REDIS_URL':
        // The file's Redis is the install's own; here it is shared, so the nodes get a prefix.
        serviceNamed(value, 'redis');
        carried[key] = TEST_REDIS_URL;
        carried.REDIS_PREFIX = prefix;
        break;
      case 'DATA_DIR':
        carried[key] = dataDir;
        break;
      case 'PORT': {
        // The container's port, published (web) or not (worker): a free one on this machine.
        const published = (service.ports ?? []).map((mapping) => mapping.split(':').at(-1));
        for (const port of published) expect(port, `${name}: ports`).toBe(value);
        carried[key] = String(await freePort());
        break;
      }
      case 'NODE_ENV':
      case 'REDIS_PRIVATE':
      case 'SESSION_SECRET':
      case 'APP_URL':
      case 'TRUST_PROXY':
      case 'ADMIN_EMAIL':
      case 'DATABASE_POOL_SIZE':
      case 'PROCESSES':
      case 'WEB_CONCURRENCY':
        carried[key] = value;
        break;
      default:
        throw new Error(`${name}: ${key} is in the compose file; teach this test what it means`);
    }
  }
  return carried;
}

beforeAll(async () => {
  database = await createTestDatabase('compose');
  const [command, ...args] = imageCommand();
  expect(command).toBe('node');
  for (const [name, service] of nodeServices) {
    for (const key of Object.keys(service))
      if (!SERVICE_KEYS.has(key))
        throw new Error(`${name}: ${key} is in the compose file; teach this test what it means`);
    const healthcheck = service.healthcheck as { disable?: boolean } | undefined;
    if (healthcheck && (Object.keys(healthcheck).length !== 1 || healthcheck.disable !== true))
      throw new Error(`${name}: a healthcheck other than the image's; teach this test`);
    const dataDir = scratchData(name, service, image.DATA_DIR!);
    const environment = await nodeEnvironment(name, service, dataDir);
    nodes.push({
      name,
      processes: environment.PROCESSES ?? 'all',
      environment,
      dataDir,
      healthChecked: !healthcheck?.disable,
    });
  }
  // Compose starts them together (once PostgreSQL and Redis are healthy), in /app.
  const app = isRoot() ? imageAppFolder(scratch) : process.cwd();
  for (const node of nodes)
    node.process = spawnLogged(process.execPath, args, {
      cwd: app,
      env: onlyEnv(node.environment),
      ...(isRoot() ? { uid: IMAGE_USER.uid, gid: IMAGE_USER.gid } : {}),
    });
  await Promise.all(
    nodes.map((node) =>
      node.process!.waitFor(
        node.processes === 'worker' ? "CourseGen's worker is running" : 'CourseGen is running',
      ),
    ),
  );
}, 240_000);

afterAll(async () => {
  await Promise.all(nodes.map(async (node) => node.process?.stop()));
  await deleteRedisPrefix(prefix);
  await database?.drop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const webNodes = () => nodes.filter((node) => node.processes === 'web');
const workerNodes = () => nodes.filter((node) => node.processes === 'worker');
const address = (node: Node) => `http://127.0.0.1:${node.environment.PORT}`;

describe('docker-compose.several-nodes.yml, its nodes run as the file runs them', () => {
  it('runs web nodes and worker nodes, each healthy by the image’s own health check', async () => {
    expect(webNodes().length).toBeGreaterThanOrEqual(2);
    expect(workerNodes().length).toBeGreaterThanOrEqual(1);
    for (const node of nodes) {
      expect(node.healthChecked, `${node.name}: the image's health check is on`).toBe(true);
      expect(
        await runHealthCheck(node.environment, isRoot() ? IMAGE_USER : undefined),
        `${node.name} is healthy`,
      ).toBe(true);
    }
  });

  it('serves one member on every web node, with a lesson written by a worker node', async () => {
    const [first, second] = webNodes();
    const person = await signUp(address(first!));
    const outlineId = await createCourse(address(second!), person);
    const courseId = await generateCourse(address(first!), person, outlineId);
    const lesson = await firstWrittenLesson(address(second!), person, courseId);
    expect(lesson.text.length).toBeGreaterThan(40);
    expect(await lessonText(address(first!), person, courseId, lesson.lessonId)).toEqual(lesson);

    const wrote = new RegExp(`"event":"lesson\\.stored"[^\\n]*"lessonId":"?${lesson.lessonId}\\b`);
    expect(workerNodes().some((node) => wrote.test(node.process!.output()))).toBe(true);
    expect(webNodes().some((node) => wrote.test(node.process!.output()))).toBe(false);
  });

  it('keeps nothing on a node’s own disk: every /data is as empty as it was made', () => {
    for (const node of nodes) expect(fs.readdirSync(node.dataDir), node.name).toEqual([]);
  });
});
