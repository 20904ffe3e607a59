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

export type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Every transaction that writes takes the write lock up front (BEGIN IMMEDIATE): one that reads
 * first and upgrades later fails at once with SQLITE_BUSY when another process wrote in
 * between, where an immediate one waits its turn (busy_timeout).
 */
export function writeTransaction<T>(run: (tx: Transaction) => T): T {
  return db().transaction(run, { behavior: 'immediate' });
}

/** SQLite stayed locked longer than busy_timeout: a moment's overload, not a server fault. */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * A statement built and prepared once per connection, for the queries every request runs:
 * building a drizzle query and preparing it costs more than running it (issue 16's profile).
 * Keyed by the connection, so a test that closes and reopens the database gets fresh ones.
 */
export function preparedStatement<T>(build: (db: Db) => T): () => T {
  const cache = new WeakMap<Db, T>();
  return () => {
    const connection = db();
    let statement = cache.get(connection);
    if (statement === undefined) {
      statement = build(connection);
      cache.set(connection, statement);
    }
    return statement;
  };
}
