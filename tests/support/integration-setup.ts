import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { databaseFile, migrateDatabase, openDatabase } from '../../db/connection';
import { migratePostgres } from '../../db/postgres';
import { closeDatabase } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { closeRedis } from '~/utils/redis.server';
import { createTestDatabase } from './postgres';
import { deleteRedisPrefix } from './redis';

/**
 * Each integration test file gets its own database and Redis key prefix, both removed
 * afterwards, and runs in demo mode against the vendor mocks. The database is a fresh SQLite
 * file, or with `COURSEGEN_TEST_DATABASE=postgres` (the `integration-postgres` project) a fresh
 * PostgreSQL database on the test server: the same tests, through the same data layer.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-it-'));
const prefix = `coursegen-test-${randomBytes(4).toString('hex')}`;
const onPostgres = process.env.COURSEGEN_TEST_DATABASE === 'postgres';

process.env.DATA_DIR = dataDir;
process.env.REDIS_PREFIX = prefix;
process.env.DEMO_MODE = 'true';
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'warn';
delete process.env.SMTP_URL;
delete process.env.ANTHROPIC_API_KEY;
delete process.env.DATABASE_URL;

const postgres = onPostgres ? await createTestDatabase('it') : undefined;
if (postgres) {
  process.env.DATABASE_URL = postgres.url;
  process.env.SESSION_SECRET ??= randomBytes(32).toString('hex');
}
resetEnvForTests();

beforeAll(async () => {
  if (postgres) {
    await migratePostgres(postgres.url);
    return;
  }
  const migrating = openDatabase(databaseFile(dataDir));
  migrateDatabase(migrating);
  migrating.$client.close();
});

afterAll(async () => {
  await deleteRedisPrefix(prefix);
  await closeRedis();
  await closeDatabase();
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
