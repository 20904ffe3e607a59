import { databaseFile, migrateDatabase, openDatabase } from '../db/connection';
import { migratePostgres, whilePreparing } from '../db/postgres';
import { describeDatabase } from '~/utils/database-selection.server';
import { env } from '~/utils/env.server';

/**
 * `npm run db:migrate`: applies every migration not applied yet to the database: the SQLite file
 * in DATA_DIR (migrations/sqlite), or with DATABASE_URL PostgreSQL (migrations/postgres, under
 * the lock that keeps nodes starting meanwhile from migrating at the same time).
 */
const config = env();
if (config.DATABASE_URL) {
  const url = config.DATABASE_URL;
  await whilePreparing(url, () => migratePostgres(url));
} else {
  const migrating = openDatabase(databaseFile(config.DATA_DIR));
  migrateDatabase(migrating);
  migrating.$client.close();
}
console.log(`Database migrated: ${describeDatabase(config)}`);
