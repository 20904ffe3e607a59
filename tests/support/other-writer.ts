import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

/**
 * A second process on the same SQLite file, as the worker is to the web process: `churn` commits
 * tiny writes in a loop, `hold` keeps the write lock. Resolves once it is writing or holding.
 */
export function otherWriter(
  file: string,
  mode: 'churn' | 'hold',
  ms: number,
): { ready: Promise<void>; child: ChildProcess } {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE IF NOT EXISTS churn (n INTEGER)');
    const end = Date.now() + ${ms};
    if (${JSON.stringify(mode)} === 'hold') {
      db.exec('BEGIN IMMEDIATE');
      process.stdout.write('locked\\n');
      while (Date.now() < end) {}
      db.exec('COMMIT');
    } else {
      const write = db.prepare('INSERT INTO churn (n) VALUES (?)');
      process.stdout.write('writing\\n');
      while (Date.now() < end) write.run(Date.now());
    }`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { ready, child };
}

/**
 * The same on PostgreSQL, on a connection of its own: `churn` commits tiny writes in a loop,
 * `hold` keeps `table` locked (ACCESS EXCLUSIVE: no other transaction reads or writes it) for
 * `ms`. `ready` resolves once it is writing or holding; `done` once it has stopped.
 */
export function postgresOtherWriter(
  url: string,
  mode: 'churn' | 'hold',
  ms: number,
  table = 'lessons',
): { ready: Promise<void>; done: Promise<void> } {
  const client = new pg.Client({ connectionString: url, application_name: 'other-writer' });
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const done = (async () => {
    await client.connect();
    try {
      const end = Date.now() + ms;
      if (mode === 'hold') {
        await client.query('BEGIN');
        await client.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
        started();
        await new Promise((resolve) => setTimeout(resolve, ms));
        await client.query('COMMIT');
      } else {
        await client.query('CREATE TABLE IF NOT EXISTS churn (n bigint)');
        started();
        while (Date.now() < end)
          await client.query('INSERT INTO churn (n) VALUES ($1)', [Date.now()]);
      }
    } finally {
      await client.end();
    }
  })();
  // A writer that failed to start fails `ready` too, rather than leaving it pending.
  return { ready: Promise.race([ready, done]), done };
}
