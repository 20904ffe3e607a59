import { is, SQL, type Column, type Table } from 'drizzle-orm';
import { getTableConfig as postgresTable, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import {
  getTableConfig as sqliteTable,
  SQLiteSyncDialect,
  SQLiteTable,
} from 'drizzle-orm/sqlite-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as sqliteSchema from './schema';
import * as postgresSchema from './schema.pg';
import * as definitions from './tables';

/**
 * The PostgreSQL tables mirror the SQLite ones (ADR 0039): model code is written once against
 * the SQLite tables and runs on either, so every table, column, type family, nullability,
 * default, index and foreign key must have its twin. Both are built from one declaration
 * (`db/tables.ts`, ADR 0049); what is built differently per database (`db/dialects.ts`: the
 * column types, a `dialectSql` default, each dialect's index and key builders) and a table left
 * out of one schema file's exports fail here.
 */

type Described = Record<string, unknown>;

const sqliteDialect = new SQLiteSyncDialect();
const postgresDialect = new PgDialect();

/** SQL text compared across dialects: no quotes, case or spacing. */
function sqlText(value: SQL, dialect: SQLiteSyncDialect | PgDialect): string {
  return dialect
    .sqlToQuery(value)
    .sql.replace(/["`\s]/g, '')
    .toLowerCase();
}

const TYPE_FAMILIES: Record<string, string> = {
  SQLiteText: 'text',
  PgText: 'text',
  SQLiteTextJson: 'json',
  PgJsonb: 'json',
  SQLiteInteger: 'integer',
  PgInteger: 'integer',
  SQLiteTimestamp: 'timestamp',
  PgTimestamp: 'timestamp',
  SQLiteBoolean: 'boolean',
  PgBoolean: 'boolean',
  SQLiteReal: 'float',
  PgDoublePrecision: 'float',
};

/** The "now" and "empty JSON" defaults are written differently on each side. */
const EQUIVALENT_DEFAULTS: Record<string, string> = {
  "(cast(unixepoch('subsec')*1000asinteger))": 'now',
  'now()': 'now',
  "'[]'": 'empty json array',
  "'[]'::jsonb": 'empty json array',
};

function describeDefault(column: Column, dialect: SQLiteSyncDialect | PgDialect): unknown {
  if (!column.hasDefault) return undefined;
  if (!is(column.default, SQL)) return column.default;
  const text = sqlText(column.default, dialect);
  return EQUIVALENT_DEFAULTS[text] ?? text;
}

function describeColumn(column: Column, dialect: SQLiteSyncDialect | PgDialect): Described {
  const identity =
    'autoIncrement' in column
      ? Boolean(column.autoIncrement)
      : Boolean((column as { generatedIdentity?: unknown }).generatedIdentity);
  return {
    type: TYPE_FAMILIES[column.columnType] ?? `unmapped ${column.columnType}`,
    notNull: column.notNull,
    primaryKey: column.primary,
    generatedId: identity,
    default: describeDefault(column, dialect),
    enumValues: column.enumValues,
    unique: column.isUnique ? (column.uniqueName ?? true) : false,
  };
}

type Config = ReturnType<typeof sqliteTable> | ReturnType<typeof postgresTable>;

function describeTable(config: Config, dialect: SQLiteSyncDialect | PgDialect) {
  const columnName = (part: Column | SQL) =>
    is(part, SQL) ? sqlText(part, dialect) : (part as Column).name;
  return {
    columns: Object.fromEntries(
      (config.columns as Column[]).map((column) => [column.name, describeColumn(column, dialect)]),
    ),
    primaryKeys: config.primaryKeys.map((key) => key.columns.map((column) => column.name)),
    indexes: Object.fromEntries(
      config.indexes.map(({ config: index }) => [
        index.name,
        {
          unique: Boolean(index.unique),
          on: (index.columns as (Column | SQL)[]).map(columnName),
          where: index.where ? sqlText(index.where, dialect) : undefined,
        },
      ]),
    ),
    foreignKeys: config.foreignKeys
      .map((key) => {
        const reference = key.reference();
        return {
          columns: reference.columns.map((column) => column.name),
          references: `${tableName(reference.foreignTable)}(${reference.foreignColumns.map((c) => c.name).join(',')})`,
          onDelete: key.onDelete ?? 'no action',
          onUpdate: key.onUpdate ?? 'no action',
        };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
    uniqueConstraints: config.uniqueConstraints.map((unique) => unique.columns.map((c) => c.name)),
  };
}

function tableName(table: Table): string {
  return is(table, SQLiteTable) ? sqliteTable(table).name : postgresTable(table as PgTable).name;
}

const sqliteTables = Object.fromEntries(
  Object.entries(sqliteSchema)
    .filter(([, value]) => is(value, SQLiteTable))
    .map(([exportName, table]) => [exportName, sqliteTable(table as SQLiteTable)]),
);
const postgresTables = Object.fromEntries(
  Object.entries(postgresSchema)
    .filter(([, value]) => is(value, PgTable))
    .map(([exportName, table]) => [exportName, postgresTable(table as PgTable)]),
);

describe('the PostgreSQL schema', () => {
  it('has every table of the SQLite schema, under the same export and table names, and no other', () => {
    const names = (tables: Record<string, Config>) =>
      Object.entries(tables)
        .map(([exportName, config]) => `${exportName} (${config.name})`)
        .sort();
    expect(names(postgresTables)).toEqual(names(sqliteTables));
    expect(Object.keys(sqliteTables).sort()).toEqual(Object.keys(definitions).sort());
    expect(Object.keys(sqliteTables).length).toBeGreaterThan(20);
  });

  for (const [exportName, sqliteConfig] of Object.entries(sqliteTables)) {
    it(`mirrors ${sqliteConfig.name}: columns, types, nullability, defaults, keys, indexes`, () => {
      const postgresConfig = postgresTables[exportName];
      expect(postgresConfig, `db/schema.pg.ts exports no ${exportName}`).toBeDefined();
      const expected = describeTable(sqliteConfig, sqliteDialect);
      const actual = describeTable(postgresConfig!, postgresDialect);
      // Column by column first, so a difference names its column.
      expect(Object.keys(actual.columns).sort()).toEqual(Object.keys(expected.columns).sort());
      for (const [column, description] of Object.entries(expected.columns))
        expect(actual.columns[column], `${sqliteConfig.name}.${column}`).toEqual(description);
      expect(actual).toEqual(expected);
    });
  }

  it('gives every column the same TypeScript type on both sides', () => {
    type Rows<Schema> = {
      [Name in keyof Schema as Schema[Name] extends Table ? Name : never]: Schema[Name] extends {
        $inferSelect: infer Row;
        $inferInsert: infer Insert;
      }
        ? { select: Row; insert: Insert }
        : never;
    };
    expectTypeOf<Rows<typeof postgresSchema>>().toEqualTypeOf<Rows<typeof sqliteSchema>>();
  });
});
