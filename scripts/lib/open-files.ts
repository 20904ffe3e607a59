import fs from 'node:fs';

/**
 * The ids of the processes that have any of `files` open, read from /proc (Linux). Elsewhere,
 * or for processes this user may not inspect, nothing is found: callers keep other checks too.
 */
export function processesHolding(files: string[]): number[] {
  const wanted = new Set(
    files.filter((file) => fs.existsSync(file)).map((f) => fs.realpathSync(f)),
  );
  if (wanted.size === 0 || !fs.existsSync('/proc/self/fd')) return [];
  const holders: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let descriptors: string[];
    try {
      descriptors = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to inspect
    }
    const holds = descriptors.some((fd) => {
      try {
        return wanted.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds) holders.push(pid);
  }
  return holders;
}
