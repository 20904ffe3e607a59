import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { projectPath } from '../app/utils/project-files.server';

/**
 * PostgreSQL (`DATABASE_URL`, ADR 0039): the connection pool, migrations, and the lock that
 * makes several nodes starting together migrate and seed once.
 */
const MIGRATIONS_DIR = projectPath('migrations', 'postgres');

/** One key for "preparing the database" (migrations, install id, seed), whatever the node. */
const PREPARE_LOCK = 'coursegen:prepare';

export function openPostgresPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: size, application_name: 'coursegen' });
  // A pooled connection that breaks while idle (the server restarted, a network cut) is dropped
  // by the pool and replaced on next use; unhandled, its error would end the process.
  pool.on('error', (error) => console.error(`[coursegen] PostgreSQL connection lost: ${error}`));
  return pool;
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
