import { migrateDatabase } from '../db/connection';
import { closeDb, db } from '~/utils/db.server';
import { EnvError } from '~/utils/env.server';
import { seed, SeedConflict } from './seed';

/**
 * What the start runs once before any web process or worker: every migration, then the seed
 * (the main admin, the default policy texts). Its own short-lived process, so the start that
 * supervises the others keeps none of it in memory. Exits 1 with one line when it cannot.
 */
const say = (line: string) => console.log(`[coursegen] ${line}`);

try {
  migrateDatabase(db());
  const seeded = await seed();
  if (seeded.generatedPassword) {
    say(`Main admin created: ${seeded.adminEmail} / ${seeded.generatedPassword}`);
    say('This password is shown once. Change it from the profile page.');
  }
  closeDb();
} catch (error) {
  if (!(error instanceof SeedConflict || error instanceof EnvError)) throw error;
  console.error(`[coursegen] ${error.message}`);
  process.exitCode = 1;
}
