import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';
import { projectPath } from '../app/utils/project-files.server';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

// Migrations are read from the project folder, whether this runs from source or from a bundle.
// migrations/postgres holds PostgreSQL's (db/postgres.ts).
const MIGRATIONS_DIR = projectPath('migrations', 'sqlite');

export { databaseFile } from './database-file';

/**
 * Opens the SQLite file with the pragmas web and worker both rely on:
 * WAL so readers never block the writer, NORMAL sync (safe with WAL),
 * enforced foreign keys and a busy timeout for the other process's writes.
 */
export function openDatabase(file: string): Db {
  // The file holds password hashes and personal data: only the app's user may read it. SQLite
  // gives the -wal and -shm files the main file's mode.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  tightenMode(file, 0o600);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return drizzle(sqlite, { schema }) as Db;
}

/** Narrows an existing file's mode (e.g. made 0644 by an older version); not ours, left alone. */
function tightenMode(file: string, mode: number) {
  try {
    if ((fs.statSync(file).mode & 0o777) !== mode) fs.chmodSync(file, mode);
  } catch {
    // Owned by someone else (a read-only mount): opening it will say what is wrong.
  }
}

export function migrateDatabase(db: Db) {
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
}
