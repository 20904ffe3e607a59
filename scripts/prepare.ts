import { databaseFile, migrateDatabase, openDatabase } from '../db/connection';
import { migratePostgres, whilePreparing } from '../db/postgres';
import { closeDatabase, databaseErrorCode } from '~/utils/database.server';
import { redactDatabaseUrl } from '~/utils/database-selection.server';
import { env, EnvError } from '~/utils/env.server';
import { ensureInstallId } from '~/utils/install-id.server';
import { seed, SeedConflict } from './seed';

/**
 * What the start runs once before any web process or worker: every migration, then the seed
 * (the main admin, the default policy texts). Its own short-lived process, so the start that
 * supervises the others keeps none of it in memory. Exits 1 with one line when it cannot.
 *
 * On PostgreSQL (DATABASE_URL) several nodes may start at once: each prepares under one
 * advisory lock, so the first migrates and seeds (and makes the install id) and the others,
 * waiting their turn, find nothing left to do (ADR 0039).
 */
const say = (line: string) => console.log(`[coursegen] ${line}`);

async function seedAndSay() {
  const seeded = await seed();
  if (seeded.generatedPassword) {
    say(`Main admin created: ${seeded.adminEmail} / ${seeded.generatedPassword}`);
    say('This password is shown once. Change it from the profile page.');
  }
}

try {
  const { DATABASE_URL } = env();
  if (DATABASE_URL) {
    await whilePreparing(DATABASE_URL, async () => {
      await migratePostgres(DATABASE_URL);
      await ensureInstallId();
      await seedAndSay();
    });
  } else {
    const migrating = openDatabase(databaseFile(env().DATA_DIR));
    try {
      migrateDatabase(migrating);
    } finally {
      migrating.$client.close();
    }
    await seedAndSay();
  }
} catch (error) {
  if (error instanceof SeedConflict || error instanceof EnvError) {
    console.error(`[coursegen] ${error.message}`);
  } else if (process.env.DATABASE_URL && databaseErrorCode(error)) {
    // Unreachable, refused credentials, no such database: one line saying where and what.
    console.error(
      `[coursegen] PostgreSQL at ${redactDatabaseUrl(process.env.DATABASE_URL)}: ` +
        `${(error as Error).message} (${databaseErrorCode(error)})`,
    );
  } else {
    throw error;
  }
  process.exitCode = 1;
} finally {
  // The pool's idle connections would otherwise keep the process alive.
  await closeDatabase().catch(() => undefined);
}
