import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import {
  generateDrizzleJson,
  generateMigration,
  generateSQLiteDrizzleJson,
  generateSQLiteMigration,
} from 'drizzle-kit/api';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from './connection';
import * as sqliteSchema from './schema';
import * as postgresSchema from './schema.pg';

/**
 * Migrations per dialect (ADR 0039): `migrations/sqlite` and `migrations/postgres`, each made by
 * drizzle-kit from its schema (`npm run db:generate`).
 */
interface Journal {
  entries: { idx: number; tag: string; when: number }[];
}
const journal = (dialect: string): Journal =>
  JSON.parse(fs.readFileSync(`migrations/${dialect}/meta/_journal.json`, 'utf8')) as Journal;

/** The snapshot drizzle-kit diffs the schema against: the last one of the folder. */
function latestSnapshot(dialect: string) {
  const meta = `migrations/${dialect}/meta`;
  const last = fs
    .readdirSync(meta)
    .filter((name) => name.endsWith('_snapshot.json'))
    .sort()
    .at(-1)!;
  return JSON.parse(fs.readFileSync(path.join(meta, last), 'utf8'));
}

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

describe('migrations', () => {
  it('are in step with both schemas: drizzle-kit generate has nothing to add', async () => {
    const sqlite = await generateSQLiteDrizzleJson(sqliteSchema);
    expect(await generateSQLiteMigration(latestSnapshot('sqlite'), sqlite)).toEqual([]);
    const postgres = generateDrizzleJson(postgresSchema);
    expect(await generateMigration(latestSnapshot('postgres'), postgres)).toEqual([]);
  });

  it('keep every SQLite migration an install may have applied, with its time', () => {
    // drizzle's migrator applies what is newer than the last migration the database recorded
    // (by `when`): moving or retiming these would make existing installs run them again, or
    // skip new ones.
    const applied = [
      ['0000_init', 1795306499903],
      ['0001_lesson_media_state_and_ordinal', 1795307231624],
      ['0002_certificate_email_claim', 1795310316831],
      ['0003_billing_receipts_paid_until', 1795364195171],
      ['0004_admin_indexes_and_audit', 1795366418130],
      ['0005_outline_failure_kind', 1795370065450],
      ['0006_durable_mail', 1795372281330],
      ['0007_email_change_tokens', 1795373568814],
      ['0009_tutor_messages', 1795391139244],
      ['0010_course_language', 1795391140244],
      ['0008_quizzes', 1795394709980],
      ['0011_lesson_notes_and_regenerations', 1795394809980],
      ['0012_course_shares', 1795419000000],
      ['0013_course_keyset_index', 1795419118346],
      ['0018_billing_checks_and_demo_provider_state', 1795655026349],
      ['0017_razorpay_event_keys', 1795656205162],
      ['0014_authoring_outline_edits_and_material', 1795660687647],
      ['0015_flashcards', 1795661078056],
      ['0016_api_tokens', 1795661695675],
    ];
    const entries = journal('sqlite').entries;
    expect(entries.slice(0, applied.length).map(({ tag, when }) => [tag, when])).toEqual(applied);
    for (const dialect of ['sqlite', 'postgres'])
      for (const { tag } of journal(dialect).entries)
        expect(fs.existsSync(`migrations/${dialect}/${tag}.sql`), `${dialect}/${tag}.sql`).toBe(
          true,
        );
  });

  it('bring an existing SQLite database up to date, keeping its rows', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-migrations-'));
    folders.push(folder);
    // The database of an install before migrations moved to migrations/sqlite: migrated from a
    // folder holding the migrations it knew.
    const earlier = path.join(folder, 'earlier');
    fs.mkdirSync(path.join(earlier, 'meta'), { recursive: true });
    const known = journal('sqlite').entries.filter(({ tag }) => tag < '0019');
    fs.writeFileSync(
      path.join(earlier, 'meta', '_journal.json'),
      JSON.stringify({ ...journal('sqlite'), entries: known }),
    );
    for (const { tag } of known)
      fs.copyFileSync(`migrations/sqlite/${tag}.sql`, path.join(earlier, `${tag}.sql`));
    const file = path.join(folder, 'coursegen.sqlite');
    const before = new Database(file);
    migrate(drizzle(before), { migrationsFolder: earlier });
    before
      .prepare(
        "INSERT INTO users (id, email, name, password_hash) VALUES ('u1', 'a@b.c', 'A', 'x')",
      )
      .run();
    before.close();

    const db = openDatabase(file);
    migrateDatabase(db);
    migrateDatabase(db); // and again: nothing more to do
    const recorded = db.$client.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as {
      n: number;
    };
    expect(recorded.n).toBe(journal('sqlite').entries.length);
    expect(db.$client.prepare('SELECT email FROM users').all()).toEqual([{ email: 'a@b.c' }]);
    expect(db.$client.prepare('SELECT count(*) AS n FROM settings').get()).toEqual({ n: 0 });
    db.$client.close();
  });
});
