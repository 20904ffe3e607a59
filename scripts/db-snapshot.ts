import fs from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateSQLiteDrizzleJson } from 'drizzle-kit/api';
import * as sqliteSchema from '../db/schema';
import * as postgresSchema from '../db/schema.pg';

/**
 * `npm run db:snapshot -- sqlite|postgres`: records the schema as it is now in the latest
 * snapshot of `migrations/<dialect>/meta`, without writing a migration. Only for a migration
 * written by hand (and merged from another branch) that already makes the schema what it is:
 * drizzle-kit diffs the schema against that snapshot, so `npm run db:generate` would otherwise
 * write the same change again. `db/migrations.test.ts` fails until the two agree.
 */
const dialect = process.argv[2];
if (dialect !== 'sqlite' && dialect !== 'postgres') {
  console.error('Usage: npm run db:snapshot -- sqlite|postgres');
  process.exit(1);
}
const meta = path.join('migrations', dialect, 'meta');
const latest = fs
  .readdirSync(meta)
  .filter((name) => name.endsWith('_snapshot.json'))
  .sort()
  .at(-1)!;
const file = path.join(meta, latest);
const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as {
  id: string;
  prevId: string;
  _meta?: object;
};
const current =
  dialect === 'sqlite'
    ? await generateSQLiteDrizzleJson(sqliteSchema, recorded.prevId)
    : generateDrizzleJson(postgresSchema, recorded.prevId);
// The snapshot keeps its place in the chain (its id); only what it describes changes.
fs.writeFileSync(
  file,
  JSON.stringify(
    { ...current, id: recorded.id, _meta: { ...recorded._meta, ...current._meta } },
    null,
    2,
  ),
);
console.log(`${file} now describes db/schema${dialect === 'sqlite' ? '' : '.pg'}.ts`);
