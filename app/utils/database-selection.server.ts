import { databaseFile } from '../../db/database-file';
import type { Env } from './env.server';

/**
 * Which database this install runs on (ADR 0039), in a module light enough for the start to
 * load: the data layer itself is `database.server.ts`.
 */

/** The URL as it may be printed or logged: without its password. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** The database the configuration selects, as the start prints it. */
export function describeDatabase(
  config: Pick<Env, 'DATABASE_URL' | 'DATABASE_POOL_SIZE' | 'DATA_DIR'>,
): string {
  return config.DATABASE_URL
    ? `PostgreSQL at ${redactDatabaseUrl(config.DATABASE_URL)} (up to ${config.DATABASE_POOL_SIZE} connections per process)`
    : `SQLite file ${databaseFile(config.DATA_DIR)}`;
}
