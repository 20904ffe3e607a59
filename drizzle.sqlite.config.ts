import { defineConfig } from 'drizzle-kit';

/** SQLite migrations (the default database); `npm run db:generate` runs this and the PostgreSQL one. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './db/schema.ts',
  out: './migrations/sqlite',
});
