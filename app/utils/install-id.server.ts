import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { first, postgresDataLayer, type DataLayer } from './database.server';
import { env, reloadEnv } from './env.server';

const INSTALL_ID_KEY = 'install_id';

/**
 * This install's id, kept in the database's `settings` (made by whichever process asks first;
 * every other one, on any node, reads the same).
 */
export async function readOrCreateInstallId(layer: DataLayer): Promise<string> {
  const { settings } = layer.tables;
  const database = layer.database();
  await database
    .insert(settings)
    .values({ key: INSTALL_ID_KEY, value: randomBytes(4).toString('hex') })
    .onConflictDoNothing();
  const row = await first(
    database
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, INSTALL_ID_KEY)),
  );
  return row!.value;
}

/**
 * With DATABASE_URL, reads the install id from PostgreSQL into the environment
 * (`COURSEGEN_INSTALL_ID`), where `env()` and every process started from here find it: run it
 * first in each entry point that runs on its own (the start, `start:web`, `start:worker`), after
 * migrations. Without DATABASE_URL it does nothing: the id is in DATA_DIR.
 */
export async function ensureInstallId(): Promise<void> {
  const { DATABASE_URL } = env();
  if (!DATABASE_URL || process.env.COURSEGEN_INSTALL_ID) return;
  const layer = postgresDataLayer({ url: DATABASE_URL, poolSize: 1 });
  try {
    process.env.COURSEGEN_INSTALL_ID = await readOrCreateInstallId(layer);
  } finally {
    await layer.close();
  }
  reloadEnv();
}
