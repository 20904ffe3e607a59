import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '../db/connection';
import { env } from '~/utils/env.server';

/**
 * `npm run backup [FILE]`: a consistent copy of the live database, safe while the app runs.
 * SQLite's online backup API copies what is committed, including what is still only in the
 * -wal file, which a plain file copy would miss.
 */
async function backup(target?: string) {
  const { DATA_DIR } = env();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.resolve(target ?? path.join(DATA_DIR, 'backups', `coursegen-${stamp}.sqlite`));
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const live = new Database(databaseFile(DATA_DIR), { fileMustExist: true });
  try {
    await live.backup(file);
  } finally {
    live.close();
  }
  fs.chmodSync(file, 0o600);
  console.log(file);
}

backup(process.argv[2]).catch((error: unknown) => {
  console.error(
    `[coursegen] backup failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
