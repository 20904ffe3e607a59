import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * PostgreSQL's own client programs (pg_dump, pg_restore), which backup and restore use: the
 * custom format they share is the one PostgreSQL operators know and every managed service takes.
 */
export class PostgresToolError extends Error {
  override name = 'PostgresToolError';
}

/** The URL without its password (given to the tool by PGPASSWORD: not visible in `ps`). */
function connection(url: string) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), password };
}

/** Runs `tool` against the database at `url`; its output, or an error saying what went wrong. */
export function runPostgresTool(tool: 'pg_dump' | 'pg_restore', args: string[], url?: string) {
  const target = url ? connection(url) : undefined;
  const result = spawnSync(tool, target ? [...args, `--dbname=${target.dbname}`] : args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: target?.password ? { ...process.env, PGPASSWORD: target.password } : process.env,
  });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new PostgresToolError(
      `${tool} was not found: backups of PostgreSQL are made with pg_dump and put back with ` +
        "pg_restore, PostgreSQL's client programs. Install them in the version of your server " +
        '(Debian/Ubuntu: sudo apt-get install postgresql-client; or run the command on a machine ' +
        'or container that has them) and try again.',
    );
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new PostgresToolError(
      `${tool} failed: ${result.stderr.trim() || `exit ${result.status}`}`,
    );
  return result.stdout;
}

/** A custom-format dump of the database at `url` into `file` (mode 0600 from the start). */
export function dumpPostgres(url: string, file: string) {
  fs.closeSync(fs.openSync(file, 'w', 0o600));
  runPostgresTool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`],
    url,
  );
}
