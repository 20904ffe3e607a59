import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { builtEntry } from '../support/built';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/postgres';

/**
 * Several nodes on one PostgreSQL database (ADR 0039): each node has its own working folder and
 * DATA_DIR and shares nothing else. What they must do once happens once.
 */
const folders: string[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});
const node = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-node-'));
  folders.push(folder);
  return folder;
};
const SESSION_SECRET = 'the-same-secret-on-every-node-0123456789';

function nodeEnv(databaseUrl: string, dataDir: string, extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET,
    ADMIN_EMAIL: 'owner@nodes.test',
    DEMO_MODE: 'true',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  delete env.ADMIN_PASSWORD;
  delete env.COURSEGEN_INSTALL_ID;
  return env;
}

function run(entry: string, env: NodeJS.ProcessEnv, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [entry], { env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function query<Row>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

describe('several nodes starting together on one PostgreSQL database', () => {
  it('migrate and seed once: one main admin, each migration applied once, one install id', async () => {
    const database = await createTestDatabase('nodes');
    databases.push(database);
    const nodes = Array.from({ length: 4 }, node);
    const results = await Promise.all(
      nodes.map((dataDir) => run(builtEntry('prepare'), nodeEnv(database.url, dataDir), dataDir)),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const announced = results.filter(({ stdout }) => stdout.includes('Main admin created'));
    expect(announced).toHaveLength(1);
    expect(announced[0]!.stdout).toMatch(/Main admin created: owner@nodes\.test \/ \S{16}/);

    const admins = await query<{ email: string }>(
      database.url,
      "SELECT email FROM users WHERE role = 'main_admin'",
    );
    expect(admins).toEqual([{ email: 'owner@nodes.test' }]);
    const journal = JSON.parse(
      fs.readFileSync('migrations/postgres/meta/_journal.json', 'utf8'),
    ) as { entries: unknown[] };
    const applied = await query<{ n: string }>(
      database.url,
      'SELECT count(*) AS n FROM drizzle.__drizzle_migrations',
    );
    expect(Number(applied[0]!.n)).toBe(journal.entries.length);
    expect(await query(database.url, 'SELECT key FROM settings')).toEqual([{ key: 'install_id' }]);
    expect(await query<{ n: string }>(database.url, 'SELECT count(*) AS n FROM policies')).toEqual([
      { n: '5' },
    ]);
    // Nothing a node needs was left on its own disk.
    for (const dataDir of nodes) {
      expect(fs.existsSync(path.join(dataDir, 'install-id'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'session-secret'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'coursegen.sqlite'))).toBe(false);
    }
  });

  it('npm run db:migrate migrates PostgreSQL too', async () => {
    const database = await createTestDatabase('migrate');
    databases.push(database);
    const dataDir = node();
    const migrated = await run(builtEntry('migrate'), nodeEnv(database.url, dataDir), dataDir);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`Database migrated: PostgreSQL at ${database.url}`);
    expect(await query(database.url, "SELECT to_regclass('public.lessons') AS t")).toEqual([
      { t: 'lessons' },
    ]);
  });

  it('refuse to start without SESSION_SECRET, saying why', () => {
    const dataDir = node();
    const env = nodeEnv('postgres://postgres@127.0.0.1:5432/none', dataDir);
    delete env.SESSION_SECRET;
    const started = spawnSync(process.execPath, [builtEntry('start')], {
      env,
      cwd: dataDir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain(
      'Invalid environment variable SESSION_SECRET: required when DATABASE_URL is set, so that every node signs cookies with the same secret',
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('stop the start with one line when PostgreSQL cannot be reached, its password not printed', async () => {
    const dataDir = node();
    const password = new URL(TEST_DATABASE_URL);
    password.password = 'not-printed';
    password.pathname = '/coursegen_unreachable';
    const unreachable = await run(
      builtEntry('start'),
      nodeEnv(password.toString().replace(/:\d+\//, ':9/'), node()),
      dataDir,
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toContain('Database: PostgreSQL at postgres://postgres:***@');
    expect(unreachable.stderr).toMatch(/PostgreSQL at postgres:\/\/postgres:\*\*\*@.*ECONNREFUSED/);
    expect(unreachable.stdout + unreachable.stderr).not.toContain('not-printed');
  });
});
