import { databaseFile, openDatabase, type Db } from '../../db/connection';
import { env } from './env.server';

declare global {
  // Kept on globalThis so dev-server rebuilds reuse the one connection.
  var __coursegenDb: Db | undefined;
}

/** The one SQLite connection of this process. */
export function db(): Db {
  globalThis.__coursegenDb ??= openDatabase(databaseFile(env().DATA_DIR));
  return globalThis.__coursegenDb;
}

export function closeDb() {
  globalThis.__coursegenDb?.$client.close();
  globalThis.__coursegenDb = undefined;
}
