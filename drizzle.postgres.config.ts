import { defineConfig } from 'drizzle-kit';

/** PostgreSQL migrations (`DATABASE_URL`, ADR 0039), from the tables built for it (ADR 0049). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.pg.ts',
  out: './migrations/postgres',
});
