import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Story } from '../../scripts/lib/upgrade-story';

/**
 * The databases earlier releases left behind (tests/fixtures/upgrade/<version>/, made by
 * scripts/make-upgrade-fixture.ts from the release's own build; ADR 0050), and what the upgrade
 * test needs around them: putting one back, reading every row of every table, and saying which
 * rows an upgrade lost or changed. The readers ask each database for its own tables, so they
 * read a fixture as its release made it, whatever today's schema declares.
 */
export const FIXTURES_DIR = path.resolve('tests/fixtures/upgrade');

export type Dialect = 'sqlite' | 'postgres';

export interface FixtureDatabase {
  /** The file in the fixture's folder: a SQLite database, or pg_dump's plain SQL. */
  file: string;
  /** Who and what the release's story made there (ids differ between the two databases). */
  story: Story;
  /** Each table's row count when the fixture was made. */
  rows: Record<string, number>;
}

export interface FixtureManifest {
  version: string;
  commit: string;
  made: string;
  databases: Record<Dialect, FixtureDatabase>;
}

export interface Fixture {
  dir: string;
  manifest: FixtureManifest;
}

/** Every release's fixture, oldest first. */
export function listFixtures(): Fixture[] {
  if (!fs.existsSync(FIXTURES_DIR)) return [];
  return fs
    .readdirSync(FIXTURES_DIR)
    .map((name) => path.join(FIXTURES_DIR, name))
    .filter((dir) => fs.existsSync(path.join(dir, 'fixture.json')))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(
        fs.readFileSync(path.join(dir, 'fixture.json'), 'utf8'),
      ) as FixtureManifest,
    }))
    .sort((a, b) => a.manifest.made.localeCompare(b.manifest.made));
}

/** Puts the fixture's SQLite database where an app on `dataDir` finds it. */
export function restoreSqliteFixture(fixture: Fixture, dataDir: string) {
  fs.copyFileSync(
    path.join(fixture.dir, fixture.manifest.databases.sqlite.file),
    path.join(dataDir, 'coursegen.sqlite'),
  );
}

/** Runs the fixture's pg_dump into the (empty) database at `url`, stopping at the first error. */
export function restorePostgresFixture(fixture: Fixture, url: string) {
  const file = path.join(fixture.dir, fixture.manifest.databases.postgres.file);
  const restored = spawnSync(
    'psql',
    ['--quiet', '--no-psqlrc', '-v', 'ON_ERROR_STOP=1', `--file=${file}`, url],
    { encoding: 'utf8' },
  );
  if (restored.error) throw restored.error;
  if (restored.status !== 0) throw new Error(`psql could not restore ${file}:\n${restored.stderr}`);
}

/** One table as read: its primary key's columns (all columns when it has none) and its rows. */
interface TableRows {
  key: string[];
  columns: string[];
  rows: Record<string, unknown>[];
}

/** Every table of a database by name (PostgreSQL's outside `public` with their schema). */
export type Tables = Map<string, TableRows>;

export function readSqliteTables(file: string): Tables {
  const db = new Database(file, { readonly: true });
  try {
    const tables: Tables = new Map();
    const names = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    for (const name of names) {
      const info = db.prepare(`PRAGMA table_info("${name}")`).all() as {
        name: string;
        pk: number;
      }[];
      const columns = info.map((column) => column.name);
      const primary = info.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
      const key = primary.length > 0 ? primary.map((column) => column.name) : columns;
      const order = key.map((column) => `"${column}"`).join(', ');
      const rows = db.prepare(`SELECT * FROM "${name}" ORDER BY ${order}`).all() as Record<
        string,
        unknown
      >[];
      tables.set(name, { key, columns, rows });
    }
    return tables;
  } finally {
    db.close();
  }
}

export async function readPostgresTables(url: string): Promise<Tables> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables: Tables = new Map();
    const { rows: found } = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
       ORDER BY table_schema, table_name`,
    );
    for (const { schema, name } of found) {
      const qualified = `"${schema}"."${name}"`;
      const { rows: columnRows } = await client.query<{ name: string }>(
        `SELECT column_name AS name FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
        [schema, name],
      );
      const columns = columnRows.map((column) => column.name);
      const { rows: keyRows } = await client.query<{ name: string }>(
        `SELECT a.attname AS name FROM pg_index i
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
         WHERE i.indrelid = $1::regclass AND i.indisprimary
         ORDER BY array_position(i.indkey, a.attnum)`,
        [qualified],
      );
      const key = keyRows.length > 0 ? keyRows.map((column) => column.name) : columns;
      const order = key.map((column) => `"${column}"`).join(', ');
      const { rows } = await client.query<Record<string, unknown>>(
        `SELECT * FROM ${qualified} ORDER BY ${order}`,
      );
      tables.set(schema === 'public' ? name : `${schema}.${name}`, { key, columns, rows });
    }
    return tables;
  } finally {
    await client.end();
  }
}

export function rowCounts(tables: Tables): Record<string, number> {
  return Object.fromEntries([...tables].map(([name, table]) => [name, table.rows.length]));
}

/** A value as text for a key: dates as ISO, bytes as hex, big integers as digits. */
function keyText(row: Record<string, unknown>, key: string[]): string {
  return JSON.stringify(
    key.map((column) => {
      const value = row[column];
      if (value instanceof Date) return value.toISOString();
      if (Buffer.isBuffer(value)) return value.toString('hex');
      if (typeof value === 'bigint') return value.toString();
      return value;
    }),
  );
}

/**
 * Every way `after` fails to hold a row of `before`: a table gone, a column gone, a row gone (by
 * its primary key; by all its values in a table without one), or a value that differs. New
 * tables, columns and rows are not problems. `rewritten` names the `table.column`s a migration
 * is meant to change, each with the reason; their values are not compared.
 */
export function rowsLostOrChanged(
  before: Tables,
  after: Tables,
  rewritten: Record<string, string> = {},
): string[] {
  const problems: string[] = [];
  for (const [name, old] of before) {
    const now = after.get(name);
    if (!now) {
      problems.push(`table ${name} (${old.rows.length} rows) is gone`);
      continue;
    }
    const compared = old.columns.filter((column) => !(`${name}.${column}` in rewritten));
    for (const column of compared)
      if (!now.columns.includes(column)) problems.push(`column ${name}.${column} is gone`);
    const present = compared.filter((column) => now.columns.includes(column));
    const byKey = new Map<string, Record<string, unknown>[]>();
    for (const row of now.rows) {
      const text = keyText(row, old.key);
      byKey.set(text, [...(byKey.get(text) ?? []), row]);
    }
    let lost = 0;
    let changed = 0;
    const examples: string[] = [];
    for (const row of old.rows) {
      const text = keyText(row, old.key);
      const candidates = byKey.get(text) ?? [];
      const match = candidates.find((candidate) =>
        present.every((column) => isDeepStrictEqual(candidate[column], row[column])),
      );
      if (match) {
        // Each row of `after` stands for one row of `before` (tables keyed by all their values).
        candidates.splice(candidates.indexOf(match), 1);
        continue;
      }
      if (candidates.length === 0) {
        lost += 1;
        if (examples.length < 3) examples.push(`lost ${text}`);
        continue;
      }
      changed += 1;
      const differing = present.filter(
        (column) => !isDeepStrictEqual(candidates[0]![column], row[column]),
      );
      if (examples.length < 3)
        examples.push(
          `${text}: ${differing
            .map(
              (column) =>
                `${column} ${JSON.stringify(row[column])} -> ${JSON.stringify(candidates[0]![column])}`,
            )
            .join(', ')}`,
        );
    }
    if (lost + changed > 0)
      problems.push(
        `table ${name}: ${lost} of ${old.rows.length} rows lost, ${changed} changed (${examples.join('; ')})`,
      );
  }
  return problems;
}
