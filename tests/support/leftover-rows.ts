import { count, getTableColumns, getTableName, inArray, sql, type Column } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database, Tables } from '~/utils/database.server';

/**
 * What must be gone after a deletion, by column: `columns` names a column (as the database
 * names it, `course_id`) and the values none of its rows may hold, in any table; `ids` names a
 * table and the ids of its own rows that must be gone. Every table of the schema is read, so a
 * table added later is checked without a change here.
 */
export interface Gone {
  columns: Record<string, readonly (string | number)[]>;
  ids?: Record<string, readonly (string | number)[]>;
  /** Rows allowed to stay, by table: their columns checked all the same, except these. */
  kept?: Record<string, readonly string[]>;
}

/** Each table and column still holding something of `gone`, with its row count. */
export async function leftoverRows(db: Database, tables: Tables, gone: Gone): Promise<string[]> {
  const left: string[] = [];
  for (const table of Object.values(tables) as SQLiteTable[]) {
    const name = getTableName(table);
    for (const column of Object.values(getTableColumns(table)) as Column[]) {
      if (gone.kept?.[name]?.includes(column.name)) continue;
      const values =
        column.name === 'id' && gone.ids?.[name] ? gone.ids[name] : gone.columns[column.name];
      if (!values || values.length === 0) continue;
      const [row] = await db
        .select({ rows: count() })
        .from(table)
        .where(inArray(column, [...values]));
      if (row && Number(row.rows) > 0) left.push(`${name}.${column.name}: ${row.rows}`);
    }
  }
  return left;
}

/** Every table the check reads, so a test can show it covered the whole schema. */
export function tableNames(tables: Tables): string[] {
  return (Object.values(tables) as SQLiteTable[]).map((table) => getTableName(table));
}

/**
 * Each table and text or JSON column whose rows still contain `needle` (an email, an id), read
 * as text on either database. `skip` names tables left out (with the caller saying why).
 */
export async function rowsMentioning(
  db: Database,
  tables: Tables,
  needle: string,
  skip: readonly string[] = [],
): Promise<string[]> {
  const found: string[] = [];
  const pattern = `%${needle.toLowerCase()}%`;
  for (const table of Object.values(tables) as SQLiteTable[]) {
    const name = getTableName(table);
    if (skip.includes(name)) continue;
    for (const column of Object.values(getTableColumns(table)) as Column[]) {
      if (column.dataType !== 'string' && column.dataType !== 'json') continue;
      const [row] = await db
        .select({ rows: count() })
        .from(table)
        .where(sql`lower(cast(${column} as text)) like ${pattern}`);
      if (row && Number(row.rows) > 0) found.push(`${name}.${column.name}: ${row.rows}`);
    }
  }
  return found;
}
