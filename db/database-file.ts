import path from 'node:path';

/** The SQLite database in a data folder (a module of its own: the start names it, light). */
export function databaseFile(dataDir: string) {
  return path.join(dataDir, 'coursegen.sqlite');
}
