import { spawnSync } from 'node:child_process';

/** The processes of a process group (what a signal to the group reaches). */
export function groupMembers(pgid: number): number[] {
  const listed = spawnSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' });
  return listed.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

/** The children of `parent` whose command line includes `command`. */
export function childPids(parent: number, command: string): number[] {
  const listed = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], {
    encoding: 'utf8',
  });
  return listed.stdout
    .split('\n')
    .filter((line) => line.includes(command))
    .map((line) => Number(line.trim().split(' ')[0]))
    .filter((pid) => pid > 0);
}

/** Polls `probe` until it gives something truthy (returned), or throws after `timeoutMs`. */
export async function until<T>(
  probe: () => T | Promise<T>,
  timeoutMs: number,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
