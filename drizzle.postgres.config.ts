import { defineConfig } from 'drizzle-kit';

/** PostgreSQL migrations (`DATABASE_URL`, ADR 0039), generated from the schema's twin. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.pg.ts',
  out: './migrations/postgres',
});
