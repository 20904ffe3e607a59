import { databaseFile, openDatabase } from '../../db/connection';
import {
  checkDatabaseHealth,
  database,
  databaseDialect,
  postgresDataLayer,
  sqliteDataLayer,
  tables,
  transaction,
  type DataLayer,
} from '~/utils/database.server';

/**
 * The database of an app a test runs beside (`RunningApp` satisfies it): the SQLite file in its
 * data folder, or its PostgreSQL database when it has a `databaseUrl`.
 */
export interface AppDatabase {
  dataDir: string;
  databaseUrl?: string;
  /** The SESSION_SECRET the app was given; without one it keeps its own in `dataDir`. */
  sessionSecret?: string;
}

/** This process's own database (`database()` of ~/utils/database.server), for in-process tests. */
export const THIS_PROCESS: unique symbol = Symbol('this process');

/**
 * Where a test helper reads and writes: a running app's database, a SQLite data folder (how the
 * browser tests name their app's), or `THIS_PROCESS`.
 */
export type DatabaseTarget = AppDatabase | string | typeof THIS_PROCESS;

const processLayer: DataLayer = {
  get dialect() {
    return databaseDialect();
  },
  get tables() {
    return tables;
  },
  get root() {
    return database();
  },
  database,
  transaction,
  checkHealth: checkDatabaseHealth,
  // The process's database is integration-setup's to close.
  close: async () => undefined,
};

const layers = new Map<string, DataLayer>();

/**
 * The data layer over a target's database (tables and queries of its dialect), opened at first
 * use and kept for the test file: one SQLite connection beside the app's (WAL lets it write
 * meanwhile), or a small PostgreSQL pool. `closeAppDatabases` closes them.
 */
export function appDataLayer(target: DatabaseTarget): DataLayer {
  if (target === THIS_PROCESS) return processLayer;
  const app = typeof target === 'string' ? { dataDir: target } : target;
  const key = app.databaseUrl ?? `sqlite:${app.dataDir}`;
  let layer = layers.get(key);
  if (!layer) {
    if (app.databaseUrl) {
      layer = postgresDataLayer({ url: app.databaseUrl, poolSize: 4 });
    } else {
      const connection = openDatabase(databaseFile(app.dataDir));
      layer = sqliteDataLayer(connection.$client, { onClose: () => connection.$client.close() });
    }
    layers.set(key, layer);
  }
  return layer;
}

/** Closes every database `appDataLayer` opened (before the apps stop: PostgreSQL drops theirs). */
export async function closeAppDatabases() {
  const open = [...layers.values()];
  layers.clear();
  await Promise.all(open.map((layer) => layer.close()));
}
