import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../db/postgres';
import { builtEntry } from '../support/built';
import { createTestDatabase, type TestDatabase } from '../support/postgres';

/** `npm run backup` / `npm run restore FILE` with DATABASE_URL: pg_dump and pg_restore. */
let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase('backup');
  await migratePostgres(database.url);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-pg-backup-'));
});
afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function run(entry: 'backup' | 'restore', args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, [builtEntry(entry), ...args], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
      ...extra,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function sql<Row = Record<string, unknown>>(text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

const members = async () =>
  (await sql<{ email: string }>('SELECT email FROM users ORDER BY email')).map((row) => row.email);

describe('backup and restore on PostgreSQL', () => {
  it('dumps the database and puts it back, keeping the one it replaced', async () => {
    await sql(
      "INSERT INTO users (id, email, name, password_hash) VALUES ('u1', 'kept@example.com', 'K', 'x')",
    );
    await sql(
      "INSERT INTO courses (id, user_id, main_topic, type) VALUES ('c1', 'u1', 'Kept course', 'text')",
    );
    const made = run('backup', []);
    expect(made.status, made.stderr).toBe(0);
    const backupFile = made.stdout.trim().split('\n').at(-1)!;
    expect(backupFile).toMatch(/backups\/coursegen-\d{4}-\d\d-\d\dT.*\.dump$/);
    expect(fs.readFileSync(backupFile).subarray(0, 5).toString()).toBe('PGDMP');
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${backupFile}.partial`)).toBe(false);

    // Life goes on after the backup: a member leaves, another joins, the identity moves on.
    await sql("DELETE FROM users WHERE id = 'u1'");
    await sql(
      "INSERT INTO users (id, email, name, password_hash) VALUES ('u2', 'later@example.com', 'L', 'x')",
    );
    await sql(
      "INSERT INTO contacts (id, first_name, last_name, email, phone, message) VALUES ('x', 'a', 'b', 'c', 'd', 'e')",
    );

    // Refused while anything is connected: a node still running.
    const node = new pg.Client({ connectionString: database.url, application_name: 'a-web-node' });
    await node.connect();
    const refused = run('restore', [backupFile]);
    await node.end();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /in use by 1 other connection\(s\) \(pid \d+ a-web-node\)\. Stop the web and worker on every node/,
    );
    expect(await members()).toEqual(['later@example.com']);

    const restored = run('restore', [backupFile]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(await members()).toEqual(['kept@example.com']);
    expect(await sql('SELECT main_topic FROM courses')).toEqual([{ main_topic: 'Kept course' }]);
    expect(await sql('SELECT id FROM contacts')).toEqual([]);
    // Migrations are recorded as in the backup: the next start has nothing to redo.
    const journal = JSON.parse(
      fs.readFileSync('migrations/postgres/meta/_journal.json', 'utf8'),
    ) as {
      entries: unknown[];
    };
    expect(await sql('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).toEqual([
      { n: journal.entries.length },
    ]);
    // New rows still get new ids after a restore (identity sequences come back with the data).
    await sql(
      "INSERT INTO users (id, email, name, password_hash) VALUES ('u3', 'n@example.com', 'N', 'x')",
    );
    await sql(
      "INSERT INTO courses (id, user_id, main_topic, type) VALUES ('c3', 'u3', 'T', 'text')",
    );
    await sql(
      "INSERT INTO topics (course_id, position, title) VALUES ('c1', 0, 'a'), ('c3', 0, 'b')",
    );

    const aside = restored.stdout.match(/the current database is kept as (\S+\.dump)/)?.[1];
    expect(aside).toBeDefined();
    expect(fs.readFileSync(aside!).subarray(0, 5).toString()).toBe('PGDMP');

    const notADump = path.join(dataDir, 'notes.txt');
    fs.writeFileSync(notADump, 'hello');
    const junk = run('restore', [notADump]);
    expect(junk.status).toBe(1);
    expect(junk.stderr).toContain('is not a dump made by npm run backup');
    expect(await members()).toEqual(['kept@example.com', 'n@example.com']);
  });

  it('names pg_dump and pg_restore, and how to get them, when they are missing', () => {
    const withoutTools = { PATH: path.join(dataDir, 'no-such-folder') };
    const backup = run('backup', [], withoutTools);
    expect(backup.status).toBe(1);
    expect(backup.stderr).toContain('pg_dump was not found');
    expect(backup.stderr).toContain('apt-get install postgresql-client');
    expect(
      fs.readdirSync(path.join(dataDir, 'backups')).filter((f) => f.endsWith('.partial')),
    ).toEqual([]);
    const restore = run('restore', [path.join(dataDir, 'notes.txt')], withoutTools);
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain('pg_restore was not found');
  });
});
