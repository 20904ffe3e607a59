import { spawn, type ChildProcess } from 'node:child_process';

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
