import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '../db/connection';
import { env } from '~/utils/env.server';
import { processesHolding } from './lib/open-files';
import { runningPid } from './lib/pid-file';

/**
 * `npm run restore FILE`: puts a backup in place of the database, with the app stopped. The
 * current file is kept beside it (`.before-restore-<time>`). Work the backup says is owed
 * (outlines, lessons) is picked up by the worker's sweep after the next start.
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

function restore(source: string | undefined) {
  if (!source) fail('Usage: npm run restore FILE');
  const backupFile = path.resolve(source);
  const { DATA_DIR } = env();
  const pid = runningPid(DATA_DIR);
  if (pid) fail(`CourseGen is running on ${DATA_DIR} (pid ${pid}). Stop it, then restore.`);
  checkBackup(backupFile);

  const live = databaseFile(DATA_DIR);
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
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
  console.log(`[coursegen] restored ${backupFile} into ${live}. Start the app with npm start.`);
}

restore(process.argv[2]);
