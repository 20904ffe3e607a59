import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm start` keeps its pid in the data folder while it runs, so a restore (or a second start)
 * can tell that the app is using the database. A pid whose process is gone is stale.
 */
const pidFile = (dataDir: string) => path.join(dataDir, 'coursegen.pid');

export function runningPid(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile(dataDir), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export function writePidFile(dataDir: string) {
  fs.writeFileSync(pidFile(dataDir), String(process.pid), { mode: 0o600 });
}

export function removePidFile(dataDir: string) {
  fs.rmSync(pidFile(dataDir), { force: true });
}
