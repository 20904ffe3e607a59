import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { databaseFile } from '../db/connection';
import * as postgresSchema from '../db/schema.pg';
import { env } from '~/utils/env.server';
import { describeHolder, lockDataDir } from './lib/data-dir-lock';
import { processesHolding } from './lib/open-files';
import { dumpPostgres, PostgresToolError, runPostgresTool } from './lib/postgres-tools';

/**
 * `npm run restore FILE`: puts a backup in place of the database, with the app stopped. The
 * current file is kept beside it (`.before-restore-<time>`). Work the backup says is owed
 * (outlines, lessons) is picked up by the worker's sweep after the next start. With DATABASE_URL,
 * a dump made by `npm run backup` goes back into PostgreSQL with pg_restore.
 */
function fail(message: string): never {
  console.error(`[coursegen] ${message}`);
  process.exit(1);
}

function checkBackup(file: string) {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    fail(`${file} cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') fail(`${file} is damaged (integrity_check: ${String(integrity)})`);
    const tables = new Set(
      (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
          name: string;
        }[]
      ).map((row) => row.name),
    );
    if (!tables.has('__drizzle_migrations') || !tables.has('users'))
      fail(`${file} is not a CourseGen database`);
  } catch (error) {
    fail(
      `${file} is not a CourseGen database: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    db.close();
  }
}

async function restore(source: string | undefined) {
  if (!source) fail('Usage: npm run restore FILE');
  const backupFile = path.resolve(source);
  const { DATA_DIR, DATABASE_URL } = env();
  if (DATABASE_URL) return restorePostgres(backupFile, DATABASE_URL, DATA_DIR);
  // Held until the restore exits: a start meanwhile is refused, as a restore under a start is.
  const taken = lockDataDir(DATA_DIR);
  if ('heldBy' in taken)
    fail(
      `CourseGen is running on ${DATA_DIR}${describeHolder(taken.heldBy)}. Stop it, then restore.`,
    );
  checkBackup(backupFile);

  const live = databaseFile(DATA_DIR);
  const holders = processesHolding([live, `${live}-wal`, `${live}-shm`]);
  if (holders.length > 0)
    fail(
      `${live} is open in another process (pid ${holders.join(', ')}). ` +
        'Stop the web and worker processes, then restore.',
    );
  if (fs.existsSync(live)) {
    // Fold the WAL into the file first, so the copy kept aside is complete on its own.
    const current = new Database(live);
    current.pragma('wal_checkpoint(TRUNCATE)');
    current.close();
    const aside = `${live}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(live, aside);
    console.log(`[coursegen] the current database is kept as ${aside}`);
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(live + suffix, { force: true });
  fs.copyFileSync(backupFile, live);
  fs.chmodSync(live, 0o600);
  taken.lock.release();
  console.log(`[coursegen] restored ${backupFile} into ${live}. Start the app with npm start.`);
}

/** What pg_restore says a dump holds: a CourseGen database has its users and its migrations. */
function checkPostgresBackup(file: string) {
  if (!fs.existsSync(file)) fail(`${file} does not exist`);
  let contents: string;
  try {
    contents = runPostgresTool('pg_restore', ['--list', file]);
  } catch (error) {
    if (error instanceof PostgresToolError && error.message.includes('not found'))
      fail(error.message);
    fail(`${file} is not a dump made by npm run backup: ${(error as Error).message}`);
  }
  if (
    !/ TABLE public users /.test(contents) ||
    !/ TABLE drizzle __drizzle_migrations /.test(contents)
  )
    fail(`${file} is not a CourseGen database`);
}

/**
 * PostgreSQL: refuses while anything else is connected to the database (any node's web or
 * worker), keeps the database as it is in a dump of its own, then replaces CourseGen's tables
 * with the backup's in one transaction (pg_restore --single-transaction).
 */
async function restorePostgres(backupFile: string, url: string, dataDir: string) {
  checkPostgresBackup(backupFile);
  const client = new pg.Client({ connectionString: url, application_name: 'coursegen-restore' });
  await client.connect();
  try {
    const others = await client.query<{ pid: number; application_name: string }>(
      'SELECT pid, application_name FROM pg_stat_activity ' +
        'WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    if (others.rows.length > 0)
      fail(
        `The database is in use by ${others.rows.length} other connection(s) (` +
          others.rows
            .map((row) => `pid ${row.pid} ${row.application_name || ''}`.trim())
            .join(', ') +
          '). Stop the web and worker on every node, then restore.',
      );
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const aside = path.join(dataDir, 'backups', `coursegen-before-restore-${stamp}.dump`);
    fs.mkdirSync(path.dirname(aside), { recursive: true, mode: 0o700 });
    dumpPostgres(url, aside);
    console.log(`[coursegen] the current database is kept as ${aside}`);
    // CourseGen's tables go first, also those the backup does not know (made by a later
    // migration: they are made again at the next start, after the backup's migrations).
    const tables = Object.values(postgresSchema)
      .filter((value) => is(value, PgTable))
      .map((table) => `"${getTableConfig(table as PgTable).name}"`);
    await client.query('BEGIN');
    await client.query('DROP SCHEMA IF EXISTS drizzle CASCADE');
    await client.query(`DROP TABLE IF EXISTS ${tables.join(', ')} CASCADE`);
    await client.query('COMMIT');
    try {
      runPostgresTool(
        'pg_restore',
        [
          '--clean',
          '--if-exists',
          '--no-owner',
          '--no-privileges',
          '--single-transaction',
          '--exit-on-error',
          backupFile,
        ],
        url,
      );
    } catch (error) {
      fail(
        `restoring ${backupFile} failed: ${(error as Error).message}. The database as it was ` +
          `is in ${aside} (npm run restore ${aside}).`,
      );
    }
  } finally {
    await client.end();
  }
  console.log(
    `[coursegen] restored ${backupFile} into the PostgreSQL database. Start the app with npm start.`,
  );
}

await restore(process.argv[2]);
