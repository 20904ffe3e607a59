import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { migrateDatabase } from '../../db/connection';
import { closeDb, db } from '~/utils/db.server';
import { resetEnvForTests } from '~/utils/env.server';
import { closeRedis } from '~/utils/redis.server';
import { deleteRedisPrefix } from './redis';

/**
 * Each integration test file gets its own SQLite file and Redis key prefix,
 * both removed afterwards, and runs in demo mode against the vendor mocks.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-it-'));
const prefix = `coursegen-test-${randomBytes(4).toString('hex')}`;

process.env.DATA_DIR = dataDir;
process.env.REDIS_PREFIX = prefix;
process.env.DEMO_MODE = 'true';
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'warn';
delete process.env.SMTP_URL;
delete process.env.ANTHROPIC_API_KEY;
resetEnvForTests();

beforeAll(() => {
  migrateDatabase(db());
});

afterAll(async () => {
  await deleteRedisPrefix(prefix);
  await closeRedis();
  closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
