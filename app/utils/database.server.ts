import type BetterSqlite3 from 'better-sqlite3';
import { is, type ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { PgTable } from 'drizzle-orm/pg-core';
import {
  SQLiteTable,
  type BaseSQLiteDatabase,
  type SQLiteTransaction,
} from 'drizzle-orm/sqlite-core';
import { drizzle as drizzleProxy, type SqliteRemoteResult } from 'drizzle-orm/sqlite-proxy';
import type pg from 'pg';
import { databaseFile, openDatabase } from '../../db/connection';
import { isPoolWaitTimeout, openHealthProbe, openPostgresPool } from '../../db/postgres';
import * as sqliteSchema from '../../db/schema';
import * as postgresSchema from '../../db/schema.pg';
import { contextSlot } from './async-context.server';
import { withTimeout } from './concurrency';
import { env } from './env.server';
import { forgetSingleton, singleton } from './singleton.server';
import { traced, type SpanDescription } from './tracing.server';

/**
 * The data layer for both databases (ADR 0039). Model functions are written once, async, against
 * the SQLite tables' types:
 *
 *     const { users } = tables;
 *     const user = await first(database().select().from(users).where(eq(users.id, id)));
 *     await transaction(async (tx) => { ... });
 *
 * At run time `database()` is drizzle over the SQLite file (the sqlite-proxy driver, executing
 * on the process's one better-sqlite3 connection) or over PostgreSQL (node-postgres, a pool),
 * and `tables` are the matching tables (`db/schema.ts` or `db/schema.pg.ts`, both built from the
 * one declaration in `db/tables.ts`: the same names and columns). Only what both query builders
 * have is used: results by `await`, one row by `first`, affected rows by `.returning()`; never
 * `.all()`, `.get()`, `.run()` or `.values()`, which PostgreSQL's builders lack.
 *
 * Inside `transaction(...)`, `database()` is that transaction, so model functions called from a
 * transaction's body take part in it on both databases.
 */

type SchemaTables<Schema> = {
  [Name in keyof Schema as Schema[Name] extends SQLiteTable ? Name : never]: Schema[Name];
};
/** Every table of the schema, under its export name (`tables.users`, `tables.lessons`...). */
export type Tables = SchemaTables<typeof sqliteSchema>;
/** What model code queries: the builders common to both databases, typed as SQLite's. */
export type Database = BaseSQLiteDatabase<'async', SqliteRemoteResult, Tables>;
export type Transaction = SQLiteTransaction<
  'async',
  SqliteRemoteResult,
  Tables,
  ExtractTablesWithRelations<Tables>
>;
export type Dialect = 'sqlite' | 'postgres';

/** One open database: the process has one (`database()`), tests may open others. */
export interface DataLayer {
  readonly dialect: Dialect;
  readonly tables: Tables;
  /** The database itself, outside any transaction. */
  readonly root: Database;
  /** The transaction under way in this async context, else the database itself. */
  database(): Database;
  transaction<T>(body: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Resolves once the database answered a query, rejects when it failed or took `timeoutMs`:
   * for health checks, which must not wait on the queries of the process (ADR 0046).
   */
  checkHealth(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

function pickTables(schema: Record<string, unknown>, kind: typeof SQLiteTable | typeof PgTable) {
  return Object.fromEntries(
    Object.entries(schema).filter(([, value]) => is(value, kind)),
  ) as unknown as Tables;
}
const sqliteTables = pickTables(sqliteSchema, SQLiteTable);
// The same names and columns (db/schema-parity.test.ts), queried through the same builder
// calls: typed as the SQLite tables so that model code is written once.
const postgresTables = pickTables(postgresSchema, PgTable);

/** The transaction an async context is inside, and which database it belongs to. */
interface TransactionScope {
  layer: DataLayer;
  /** The top-level transaction this scope belongs to (shared by its savepoints). */
  owner: symbol;
  tx: Transaction | undefined;
  /** False once the body has returned: later stray work of the context runs outside it. */
  active: boolean;
}
const scope = contextSlot<TransactionScope>('transaction');

function currentScope(layer: DataLayer): TransactionScope | undefined {
  const current = scope.get();
  return current?.layer === layer && current.active ? current : undefined;
}

/** Runs `body` as a savepoint of the transaction under way in this context. */
function nested<T>(outer: TransactionScope, body: (tx: Transaction) => Promise<T>): Promise<T> {
  return outer.tx!.transaction((tx) => {
    const inner: TransactionScope = { ...outer, tx, active: true };
    return scope.run(inner, () => runBody(inner, tx, body));
  });
}

async function runBody<T>(
  current: TransactionScope,
  tx: Transaction,
  body: (tx: Transaction) => Promise<T>,
): Promise<T> {
  current.tx = tx;
  current.active = true;
  try {
    return await body(tx);
  } finally {
    current.active = false;
  }
}

// ---------------------------------------------------------------------------------------------
// SQLite

/** Prepared statements kept per connection, by SQL text; the least recently used go first. */
const STATEMENT_CACHE_SIZE = 500;

function statementCache(client: BetterSqlite3.Database, size: number) {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return (text: string) => {
    let statement = statements.get(text);
    if (statement) {
      statements.delete(text);
    } else {
      statement = client.prepare(text);
      if (statements.size >= size) statements.delete(statements.keys().next().value!);
    }
    statements.set(text, statement);
    return statement;
  };
}

/**
 * A SQLite statement's span, when traces are on (ADR 0064; PostgreSQL's come from the pg
 * instrumentation): its text has placeholders, never the values.
 */
function sqliteSpan(text: string): SpanDescription {
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  return {
    name: operation,
    kind: 'client',
    attributes: {
      'db.system.name': 'sqlite',
      'db.operation.name': operation,
      'db.query.text': text,
    },
  };
}

/**
 * A process-wide queue of turns: each waits for the one before it. A SQLite transaction holds
 * the one connection, so while it is open every other async context's query waits its turn.
 */
function turns() {
  let last = Promise.resolve();
  return async function take(): Promise<() => void> {
    let release!: () => void;
    const previous = last;
    last = new Promise((resolve) => (release = resolve));
    await previous;
    return release;
  };
}

/**
 * SQLite through drizzle's sqlite-proxy driver, executing on `client` (the process's one
 * better-sqlite3 connection). better-sqlite3 runs each statement synchronously, so queries never
 * overlap; what must not happen is another request's query running while an async transaction
 * is open on the connection (it would commit or roll back with it). So a transaction takes the
 * process's turn and BEGIN IMMEDIATE (the write lock at once, as `writeTransaction` does), marks
 * its async context, and until it ends a query from any other context waits for a turn.
 */
export function sqliteDataLayer(
  client: BetterSqlite3.Database,
  options: { statementCacheSize?: number; onClose?: () => void } = {},
): DataLayer {
  const statement = statementCache(client, options.statementCacheSize ?? STATEMENT_CACHE_SIZE);
  const takeTurn = turns();
  /** The top-level transaction open on the connection. */
  let open: symbol | undefined;

  function execute(text: string, params: unknown[], method: 'run' | 'all' | 'values' | 'get') {
    return traced(
      () => sqliteSpan(text),
      () => executeNow(text, params, method),
    );
  }

  function executeNow(text: string, params: unknown[], method: 'run' | 'all' | 'values' | 'get') {
    const prepared = statement(text);
    if (method === 'run' || !prepared.reader) {
      prepared.run(...params);
      return { rows: [] };
    }
    // Rows as arrays, in the column order drizzle asked for: what sqlite-proxy maps from.
    prepared.raw(true);
    return method === 'get'
      ? { rows: prepared.get(...params) as unknown[] }
      : { rows: prepared.all(...params) };
  }

  const root = drizzleProxy(
    async (text, params, method) => {
      const current = scope.get();
      if (open === undefined || (current?.layer === layer && current.owner === open))
        return execute(text, params, method);
      const release = await takeTurn();
      try {
        return execute(text, params, method);
      } finally {
        release();
      }
    },
    { schema: sqliteTables },
  ) as unknown as Database;

  const layer: DataLayer = {
    dialect: 'sqlite',
    tables: sqliteTables,
    root,
    database: () => currentScope(layer)?.tx ?? root,
    async transaction(body) {
      const outer = currentScope(layer);
      if (outer) return nested(outer, body);
      const release = await takeTurn();
      const current: TransactionScope = {
        layer,
        owner: Symbol('transaction'),
        tx: undefined,
        active: false,
      };
      open = current.owner;
      try {
        // BEGIN, COMMIT and ROLLBACK run in the transaction's context too, so they pass.
        return await scope.run(current, () =>
          root.transaction((tx) => runBody(current, tx, body), { behavior: 'immediate' }),
        );
      } finally {
        open = undefined;
        release();
      }
    },
    // One connection, whose statements never wait on a lock (WAL readers do not): only a
    // transaction of the process under way may delay it.
    checkHealth: (timeoutMs) =>
      withTimeout(
        root.select({ key: sqliteTables.settings.key }).from(sqliteTables.settings).limit(1),
        timeoutMs,
        `SQLite did not answer within ${timeoutMs} ms`,
      ).then(() => undefined),
    async close() {
      options.onClose?.();
    },
  };
  return layer;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/** Tries of a transaction that keeps meeting serialization failures or deadlocks. */
const SERIALIZABLE_ATTEMPTS = 8;
const RETRY_BASE_MS = 10;
const RETRY_CAP_MS = 500;

/**
 * PostgreSQL through node-postgres (a pool of `poolSize` connections) and drizzle's node-postgres
 * driver, with the PostgreSQL tables under the SQLite ones' types. A transaction is SERIALIZABLE:
 * PostgreSQL then guarantees what BEGIN IMMEDIATE gives on SQLite (the outcome of running the
 * transactions one after the other), refusing one of two conflicting transactions; the refused
 * one is run again, with backoff, up to `SERIALIZABLE_ATTEMPTS` times. A body may therefore run
 * more than once: it must do nothing but database work (send mail, enqueue jobs after it).
 */
export function postgresDataLayer(config: { url: string; poolSize: number }): DataLayer & {
  readonly pool: pg.Pool;
} {
  const pool = openPostgresPool(config.url, config.poolSize);
  const healthProbe = openHealthProbe(config.url);
  const postgres = drizzlePostgres({ client: pool, schema: postgresTables as never });
  const root = postgres as unknown as Database;

  const layer = {
    dialect: 'postgres' as const,
    tables: postgresTables,
    root,
    pool,
    database: (): Database => currentScope(layer)?.tx ?? root,
    async transaction<T>(body: (tx: Transaction) => Promise<T>): Promise<T> {
      const outer = currentScope(layer);
      if (outer) return nested(outer, body);
      for (let attempt = 1; ; attempt += 1) {
        const current: TransactionScope = {
          layer,
          owner: Symbol('transaction'),
          tx: undefined,
          active: false,
        };
        try {
          return await scope.run(current, () =>
            postgres.transaction((tx) => runBody(current, tx as unknown as Transaction, body), {
              isolationLevel: 'serializable',
            }),
          );
        } catch (error) {
          if (attempt >= SERIALIZABLE_ATTEMPTS || !isSerializationConflict(error)) throw error;
          const cap = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
        }
      }
    },
    checkHealth: (timeoutMs: number) => healthProbe.check(timeoutMs),
    async close() {
      await Promise.all([pool.end(), healthProbe.close()]);
    },
  };
  return layer;
}

/** The SQLSTATE or SQLite code of a database error, also when drizzle wrapped it. */
export function databaseErrorCode(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 4; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** PostgreSQL refused a transaction to keep the serializable guarantee, or broke a deadlock. */
function isSerializationConflict(error: unknown): boolean {
  const code = databaseErrorCode(error);
  return code === '40001' || code === '40P01';
}

/** A unique index or primary key refused the write, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = databaseErrorCode(error);
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

// ---------------------------------------------------------------------------------------------
// The process's database

let processDataLayer: DataLayer | undefined;

/**
 * The process's one database, opened at first use: PostgreSQL when DATABASE_URL is set (a pool
 * of DATABASE_POOL_SIZE), else the SQLite file in DATA_DIR (one connection, WAL). Migrations are
 * the start's (`scripts/prepare.ts`), not this.
 */
function processLayer(): DataLayer {
  processDataLayer ??= singleton('data-layer', () => {
    const { DATABASE_URL, DATABASE_POOL_SIZE, DATA_DIR } = env();
    if (DATABASE_URL) return postgresDataLayer({ url: DATABASE_URL, poolSize: DATABASE_POOL_SIZE });
    const connection = openDatabase(databaseFile(DATA_DIR));
    return sqliteDataLayer(connection.$client, { onClose: () => connection.$client.close() });
  });
  return processDataLayer;
}

/**
 * This process's PostgreSQL pool, for its metrics: connections open and idle, queries waiting
 * for one. Undefined on SQLite or before the database is first used (it is not opened for this).
 */
export function databasePoolUse(): { total: number; idle: number; waiting: number } | undefined {
  const pool = (processDataLayer as { pool?: pg.Pool } | undefined)?.pool;
  return pool
    ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
    : undefined;
}

/** The database of this process (SQLite unless DATABASE_URL is set), or the transaction under way. */
export function database(): Database {
  return processLayer().database();
}

/** `sqlite` or `postgres`: for the rare query that cannot be written the same for both. */
export function databaseDialect(): Dialect {
  return processLayer().dialect;
}

/**
 * The tables of the process's database: `const { users } = tables`. Read at each use (not
 * when a module loads), so a test may switch databases between cases.
 */
export const tables: Tables = Object.defineProperties(
  {},
  Object.fromEntries(
    Object.keys(sqliteTables).map((name) => [
      name,
      { enumerable: true, get: () => processLayer().tables[name as keyof Tables] },
    ]),
  ),
) as Tables;

/**
 * Runs `body` in one transaction: on SQLite BEGIN IMMEDIATE, no other query of the process
 * interleaving; on PostgreSQL SERIALIZABLE, retried when it conflicts with another (so `body`
 * may run more than once: database work only). A transaction opened inside another becomes a
 * savepoint of it. Throwing (or `tx.rollback()`) rolls it back.
 */
export function transaction<T>(body: (tx: Transaction) => Promise<T>): Promise<T> {
  return processLayer().transaction(body);
}

/**
 * A query built once per database and prepared with placeholders, for the queries every request
 * runs: building a drizzle query costs more than running it (ADR 0039's measurements). `build`
 * gets the database and its tables (inside a transaction: that transaction, built anew);
 * run it with `.execute({ placeholder: value })`, which resolves to the rows on both databases.
 *
 *     const userById = preparedQuery((db, { users }) =>
 *       db.select().from(users).where(eq(users.id, sql.placeholder('id'))).prepare(),
 *     );
 *     const user = (await userById().execute({ id }))[0];
 */
export function preparedQuery<T>(build: (database: Database, tables: Tables) => T): () => T {
  const built = new WeakMap<DataLayer, T>();
  return () => {
    const layer = processLayer();
    // Inside a transaction the query must run on the transaction's connection (on PostgreSQL a
    // pool connection of its own would run outside it, and wait for its locks): built for it.
    const inside = currentScope(layer)?.tx;
    if (inside) return build(inside, layer.tables);
    let query = built.get(layer);
    if (query === undefined) {
      query = build(layer.root, layer.tables);
      built.set(layer, query);
    }
    return query;
  };
}

/** One cheap query through the process's database: it is reachable and answers (a start's probe). */
export async function pingDatabase(): Promise<void> {
  const { settings } = tables;
  await database().select({ key: settings.key }).from(settings).limit(1);
}

/**
 * Whether the database answers within `timeoutMs`, on PostgreSQL over a connection of its own
 * (ADR 0046): /healthz answers in bounded time even while every pool connection waits on a lock.
 */
export function checkDatabaseHealth(timeoutMs: number): Promise<void> {
  return processLayer().checkHealth(timeoutMs);
}

/** The first row of a query's result (add `.limit(1)` to a select that may match many). */
export async function first<Row>(query: PromiseLike<Row[]>): Promise<Row | undefined> {
  const rows = await query;
  return rows[0];
}

/**
 * Closes the process's database (the SQLite connection or the PostgreSQL pool, whose idle
 * connections would keep a process alive). The next use opens it again, with the environment of
 * then: tests switch databases this way.
 */
export async function closeDatabase() {
  const layer = processDataLayer;
  processDataLayer = undefined;
  forgetSingleton('data-layer');
  await layer?.close();
}

/**
 * The database could not take the work now: SQLite stayed locked longer than busy_timeout, or
 * PostgreSQL has no connection free (the server's or the pool's) or a lock wait or statement
 * timed out (ADR 0046). A moment's overload (503 and Retry-After), not a server fault.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (isPoolWaitTimeout(error)) return true;
  const code = databaseErrorCode(error);
  if (code === undefined) return false;
  return (
    code.startsWith('SQLITE_BUSY') ||
    code === '53300' || // too_many_connections
    code === '55P03' || // lock_not_available
    code === '57014' // query_canceled (statement_timeout)
  );
}
