import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '../db/connection';
import { env } from '~/utils/env.server';
import { dumpPostgres } from './lib/postgres-tools';

/**
 * `npm run backup [FILE]`: a consistent copy of the live database, safe while the app runs.
 * With DATABASE_URL, PostgreSQL's `pg_dump` in its custom format (`.dump`, for `pg_restore`).
 * `VACUUM INTO` copies what is committed in one read transaction, including what is still only
 * in the -wal file (which a plain file copy would miss). SQLite's stepwise backup API would
 * start over each time the app commits, so it might never finish under steady writes. The copy
 * is written beside its final name and renamed, so a backup that fails half-way leaves no file
 * that looks complete.
 */
function backup(target?: string) {
  const { DATA_DIR, DATABASE_URL } = env();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const extension = DATABASE_URL ? 'dump' : 'sqlite';
  const file = path.resolve(
    target ?? path.join(DATA_DIR, 'backups', `coursegen-${stamp}.${extension}`),
  );
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (fs.existsSync(file)) throw new Error(`${file} already exists`);
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  if (DATABASE_URL) {
    // pg_dump reads one snapshot of the database, so the copy is consistent while nodes write.
    try {
      dumpPostgres(DATABASE_URL, partial);
    } catch (error) {
      fs.rmSync(partial, { force: true });
      throw error;
    }
  } else {
    const live = new Database(databaseFile(DATA_DIR), { fileMustExist: true, readonly: true });
    try {
      live.pragma('busy_timeout = 10000');
      live.prepare('VACUUM INTO ?').run(partial);
    } finally {
      live.close();
    }
  }
  fs.chmodSync(partial, 0o600);
  fs.renameSync(partial, file);
  console.log(file);
}

try {
  backup(process.argv[2]);
} catch (error) {
  console.error(
    `[coursegen] backup failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
