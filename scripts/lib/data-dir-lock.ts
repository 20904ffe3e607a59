import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { unwritableDataDir } from '~/utils/env.server';

/**
 * The data folder's lock (ADR 0045): `npm start` holds it while it keeps data in the folder (the
 * SQLite database, a private Redis), and a restore while it replaces the database, so that a
 * second start, or a restore under a running app, is refused.
 *
 * It is an advisory lock the kernel keeps on an open file, so it ends with the process that took
 * it, however that process ends: after a `kill -9` nothing is left that a later start could take
 * for a running app (a pid number could, once another process has it). Node has no file lock of
 * its own; SQLite, through better-sqlite3, takes one: `BEGIN IMMEDIATE` holds the file's RESERVED
 * lock until the connection closes, and another process's `BEGIN IMMEDIATE` fails at once.
 *
 * coursegen.pid beside it names the holder for the refusal's message, and decides nothing.
 */
const LOCK_FILE = 'coursegen.lock';
const HOLDER_FILE = 'coursegen.pid';

export interface DataDirLock {
  release: () => void;
}

export type LockAttempt = { lock: DataDirLock } | { heldBy: number | null };

export function lockDataDir(dataDir: string): LockAttempt {
  const lockFile = path.join(dataDir, LOCK_FILE);
  const holderFile = path.join(dataDir, HOLDER_FILE);
  let database: Database.Database;
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(lockFile, 'a', 0o600));
    database = new Database(lockFile, { timeout: 0 });
  } catch (error) {
    throw new Error(unwritableDataDir(dataDir, error));
  }
  try {
    database.exec('BEGIN IMMEDIATE');
  } catch (error) {
    database.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    return { heldBy: readHolder(holderFile) };
  }
  fs.writeFileSync(holderFile, String(process.pid), { mode: 0o600 });
  return {
    lock: {
      release() {
        // The holder's name goes first: once the lock is free, the next holder writes its own.
        fs.rmSync(holderFile, { force: true });
        database.close();
      },
    },
  };
}

function readHolder(holderFile: string): number | null {
  try {
    const pid = Number(fs.readFileSync(holderFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** "pid 123", or nothing when the holder has not written its name yet. */
export function describeHolder(heldBy: number | null): string {
  return heldBy === null ? '' : ` (pid ${heldBy})`;
}
