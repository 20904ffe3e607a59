import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../support/app-process';
import { insertCourse } from '../support/courses';
import { closeAppDatabases, createMember } from '../support/members';
import { otherWriter } from '../support/other-writer';

/** `npm run backup` while the app runs and writes; `npm run restore FILE` into a fresh folder. */
const folders: string[] = [];
const tempDir = (label: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `coursegen-${label}-`));
  folders.push(dir);
  return dir;
};
afterAll(async () => {
  await closeAppDatabases();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function npmRun(script: string, args: string[], dataDir: string) {
  return spawnSync('npm', ['run', '--silent', script, '--', ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

function counts(dataDir: string) {
  const db = new Database(path.join(dataDir, 'coursegen.sqlite'), { readonly: true });
  try {
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { users: count('users'), courses: count('courses'), lessons: count('lessons') };
  } finally {
    db.close();
  }
}

describe('backup and restore', () => {
  it('copies everything committed while the app runs, and restores it into a fresh folder', async () => {
    const dataDir = tempDir('live');
    // Its own Redis prefix is startApp's, removed when it stops.
    const app = await startApp({ DATA_DIR: dataDir });
    try {
      for (let i = 0; i < 3; i += 1) {
        const member = await createMember(dataDir);
        await insertCourse(dataDir, member.id, {
          mainTopic: `Course ${i}`,
          lessons: 6,
          allDone: false,
        });
      }
      const expected = counts(dataDir);
      // Committed rows still sit in the -wal file: a plain copy would miss them.
      expect(fs.statSync(path.join(dataDir, 'coursegen.sqlite-wal')).size).toBeGreaterThan(0);

      const made = npmRun('backup', [], dataDir);
      expect(made.status, made.stderr).toBe(0);
      const backupFile = made.stdout.trim().split('\n').at(-1)!;
      expect(backupFile).toMatch(/backups\/coursegen-\d{4}-\d\d-\d\dT.*\.sqlite$/);
      expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);

      const refused = npmRun('restore', [backupFile], dataDir);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/CourseGen is running on .* Stop it, then restore/);

      const fresh = tempDir('restored');
      const restored = npmRun('restore', [backupFile], fresh);
      expect(restored.status, restored.stderr).toBe(0);
      expect(counts(fresh)).toEqual(expected);
      expect(expected).toMatchObject({ courses: 3, lessons: 18 });

      const notADatabase = path.join(fresh, 'notes.txt');
      fs.writeFileSync(notADatabase, 'hello');
      const junk = npmRun('restore', [notADatabase], fresh);
      expect(junk.status).not.toBe(0);
      expect(counts(fresh)).toEqual(expected);

      // A web or worker started on its own writes no pid file; an open connection is enough.
      const holder = new Database(path.join(fresh, 'coursegen.sqlite'));
      holder.pragma('journal_mode = WAL');
      const held = npmRun('restore', [backupFile], fresh);
      holder.close();
      expect(held.status).not.toBe(0);
      expect(held.stderr).toMatch(
        /is open in another process \(pid \d+\)\. Stop the web and worker/,
      );
      expect(counts(fresh)).toEqual(expected);
    } finally {
      await closeAppDatabases();
      await app.stop();
    }
  });

  it('finishes a consistent backup while another process commits all the time', async () => {
    const dataDir = tempDir('churning');
    const file = path.join(dataDir, 'coursegen.sqlite');
    const seed = new Database(file);
    seed.pragma('journal_mode = WAL');
    seed.exec('CREATE TABLE filler (text TEXT)');
    // Some megabytes, so a stepwise copy takes many steps between the writer's commits.
    const fill = seed.prepare('INSERT INTO filler (text) VALUES (?)');
    seed.transaction(() => {
      for (let i = 0; i < 4_000; i += 1) fill.run(randomBytes(1_000).toString('hex'));
    })();
    seed.close();
    const writer = otherWriter(file, 'churn', 30_000);
    try {
      await writer.ready;
      const made = npmRun('backup', [], dataDir);
      expect(made.status, made.stderr).toBe(0);
      const backupFile = made.stdout.trim().split('\n').at(-1)!;
      expect(fs.existsSync(`${backupFile}.partial`)).toBe(false);
      const copy = new Database(backupFile, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 4_000 });
        expect(
          (copy.prepare('SELECT count(*) AS n FROM churn').get() as { n: number }).n,
        ).toBeGreaterThan(0);
      } finally {
        copy.close();
      }
    } finally {
      writer.child.kill('SIGKILL');
    }
  }, 90_000);
});
