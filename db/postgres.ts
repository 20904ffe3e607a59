import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { withTimeout } from '../app/utils/concurrency';
import { projectPath } from '../app/utils/project-files.server';

/**
 * PostgreSQL (`DATABASE_URL`, ADR 0039): the connection pool, migrations, and the lock that
 * makes several nodes starting together migrate and seed once.
 */
const MIGRATIONS_DIR = projectPath('migrations', 'postgres');

/** One key for "preparing the database" (migrations, install id, seed), whatever the node. */
const PREPARE_LOCK = 'coursegen:prepare';

/**
 * What the app's connections wait at most (ADR 0046) where nothing else says: PostgreSQL's own
 * default is to wait for ever, so one session holding a lock would hang every page that needs
 * the table. Past these a query fails (55P03, 57014) and the page answers 503 with Retry-After.
 */
const SESSION_TIMEOUT_DEFAULTS = {
  lock_timeout: '2s',
  statement_timeout: '15s',
} as const;

/**
 * How long a query waits for a free connection of the pool. The connections are all in use only
 * when queries are slow or waiting on locks: a request then answers busy rather than queue
 * behind them without end.
 */
const POOL_WAIT_MS = 2_000;
/** What pg-pool says when `POOL_WAIT_MS` has passed with no connection free (it sets no code). */
const POOL_WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

export function openPostgresPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    application_name: 'coursegen',
    connectionTimeoutMillis: POOL_WAIT_MS,
    // Awaited by the pool before it hands out a new connection; a failure fails that request.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits it (its types say void)
    onConnect: async (client) => {
      await client.query(SET_TIMEOUT_DEFAULTS, Object.values(SESSION_TIMEOUT_DEFAULTS));
    },
  });
  // A pooled connection that breaks while idle (the server restarted, a network cut) is dropped
  // by the pool and replaced on next use; unhandled, its error would end the process.
  pool.on('error', (error) => console.error(`[coursegen] PostgreSQL connection lost: ${error}`));
  return pool;
}

/**
 * Sets each timeout of SESSION_TIMEOUT_DEFAULTS that nobody set (`source` is `default`): one
 * given by DATABASE_URL (`?options=-c lock_timeout=5s`), PGOPTIONS, the role or the database
 * (`ALTER ROLE … SET`), or postgresql.conf is the operator's, kept, `0` (no limit) included.
 * Parameters on the connection's start-up message would override all of these, and connection
 * poolers such as PgBouncer refuse them.
 */
const SET_TIMEOUT_DEFAULTS = `
  SELECT set_config(name, CASE name WHEN 'lock_timeout' THEN $1 ELSE $2 END, false)
  FROM pg_settings
  WHERE name IN ('lock_timeout', 'statement_timeout') AND source = 'default'`;

/** No pool connection came free within POOL_WAIT_MS (a busy database, as a lock timeout is). */
export function isPoolWaitTimeout(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 4; depth += 1) {
    if (cause instanceof Error && cause.message === POOL_WAIT_TIMEOUT_MESSAGE) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A connection of its own for health checks, outside the pool: a check never queues behind the
 * pool's connections (all of them may be waiting on a lock), and it answers within its time
 * either way. Checks asked while one is under way share its answer; a failed or late connection
 * is dropped and the next check opens another.
 */
export function openHealthProbe(url: string) {
  let client: Promise<pg.Client> | undefined;
  let underWay: Promise<void> | undefined;

  function drop() {
    const dropped = client;
    client = undefined;
    void dropped?.then((open) => open.end()).catch(() => undefined);
  }

  function connect(): Promise<pg.Client> {
    const opening = new pg.Client({ connectionString: url, application_name: 'coursegen-health' });
    // An idle connection that breaks is dropped; the next check opens another.
    opening.on('error', () => {
      if (client === connected) client = undefined;
    });
    const connected = opening.connect().then(() => opening);
    // One that fails to open is ended too: its socket would keep the process alive.
    void connected.catch(() => opening.end().catch(() => undefined));
    return connected;
  }

  async function ask(timeoutMs: number): Promise<void> {
    client ??= connect();
    try {
      await withTimeout(
        client.then((open) => open.query('SELECT 1')),
        timeoutMs,
        `PostgreSQL did not answer within ${timeoutMs} ms`,
      );
    } catch (error) {
      drop();
      throw error;
    }
  }

  return {
    /** Resolves once PostgreSQL answered `SELECT 1`; rejects when it failed or took `timeoutMs`. */
    check(timeoutMs: number): Promise<void> {
      underWay ??= ask(timeoutMs).finally(() => (underWay = undefined));
      return underWay;
    },
    async close() {
      const open = client;
      client = undefined;
      await open?.then((connection) => connection.end()).catch(() => undefined);
    },
  };
}

/**
 * Runs `work` while holding the install-wide prepare lock (a session advisory lock): a node
 * that starts while another prepares waits, then finds the migrations applied and the admin
 * seeded. The lock goes with the session, so a node killed mid-way never leaves it held.
 */
export async function whilePreparing<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'coursegen-prepare' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [PREPARE_LOCK]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [PREPARE_LOCK]);
    }
  } finally {
    await client.end();
  }
}

/** Applies every migration in migrations/postgres not yet applied (drizzle's own journal). */
export async function migratePostgres(url: string) {
  const client = new pg.Client({ connectionString: url, application_name: 'coursegen-migrate' });
  await client.connect();
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.end();
  }
}
