import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server tests use: `TEST_DATABASE_URL` (`npm test` sets it once it found one),
 * else the local server on 127.0.0.1:5432. Its user must be allowed to create databases.
 */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  drop: () => Promise<void>;
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database of its own for one test file (or test), dropped by `drop()`. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `coursegen_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE: connections a failed test left open (a killed process's pool) do not keep it.
    drop: () =>
      onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
