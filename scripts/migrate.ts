import { migrateDatabase } from '../db/connection';
import { closeDb, db } from '~/utils/db.server';
import { env } from '~/utils/env.server';

/** `npm run db:migrate`: applies every migration in migrations/ to the database in DATA_DIR. */
migrateDatabase(db());
console.log(`Database migrated: ${env().DATA_DIR}`);
closeDb();
