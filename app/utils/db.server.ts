import { databaseFile, openDatabase, type Db } from '../../db/connection';
import { env } from './env.server';
import { forgetSingleton, singleton } from './singleton.server';

let connection: Db | undefined;

/** The one SQLite connection of this process. */
export function db(): Db {
  connection ??= singleton('db', () => {
    // The models that still call db() run on SQLite only (ADR 0039): with DATABASE_URL set they
    // must not quietly use a SQLite file beside the PostgreSQL database.
    if (env().DATABASE_URL)
      throw new Error('This code runs on SQLite only; DATABASE_URL selects PostgreSQL.');
    return openDatabase(databaseFile(env().DATA_DIR));
  });
  return connection;
}

export function closeDb() {
  connection?.$client.close();
  connection = undefined;
  forgetSingleton('db');
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
