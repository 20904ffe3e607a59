import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The cores this process may use: the CPUs it may run on (`os.availableParallelism()`, which
 * follows a cpuset), capped by a cgroup CPU quota, which Node does not count: a container's
 * `--cpus 0.5` or a systemd unit's `CPUQuota=`. Rounded up, at least 1.
 */
export function availableCores({
  cgroupRoot = '/sys/fs/cgroup',
  ownCgroupFile = '/proc/self/cgroup',
  cores = os.availableParallelism(),
}: { cgroupRoot?: string; ownCgroupFile?: string; cores?: number } = {}): number {
  const quota = cgroupCpuQuota(cgroupRoot, readText(ownCgroupFile) ?? '');
  return Math.max(1, quota === undefined ? cores : Math.min(cores, Math.ceil(quota)));
}

/**
 * The tightest CPU quota, in cores, over the process's cgroup and its ancestors (a limit on a
 * parent holds for its children), in cgroup v2 (`cpu.max`) and v1 (`cpu.cfs_quota_us` over
 * `cpu.cfs_period_us`); undefined when none is set. Inside a container the cgroup folder is the
 * container's own and the path in /proc/self/cgroup may be the host's: folders that do not exist
 * are passed over, down to the root folder.
 */
function cgroupCpuQuota(root: string, ownCgroups: string): number | undefined {
  const quotas: (number | undefined)[] = [];
  for (const folder of ownFolders(root, cgroupPath(ownCgroups, 'v2')))
    quotas.push(parseCpuMax(readText(path.join(folder, 'cpu.max'))));
  for (const mount of ['cpu', 'cpu,cpuacct'])
    for (const folder of ownFolders(path.join(root, mount), cgroupPath(ownCgroups, 'v1')))
      quotas.push(
        parseCfsQuota(
          readText(path.join(folder, 'cpu.cfs_quota_us')),
          readText(path.join(folder, 'cpu.cfs_period_us')),
        ),
      );
  const set = quotas.filter((quota) => quota !== undefined);
  return set.length > 0 ? Math.min(...set) : undefined;
}

/** cgroup v2's `cpu.max`: `max 100000` (no limit) or `<quota> <period>`, in microseconds. */
export function parseCpuMax(text: string | undefined): number | undefined {
  const [quota, period] = (text ?? '').trim().split(/\s+/);
  return cores(quota, period);
}

/** cgroup v1's `cpu.cfs_quota_us` (`-1`: no limit) and `cpu.cfs_period_us`. */
export function parseCfsQuota(
  quota: string | undefined,
  period: string | undefined,
): number | undefined {
  return cores(quota?.trim(), period?.trim());
}

function cores(quota: string | undefined, period: string | undefined): number | undefined {
  if (!quota || !period || !/^\d+$/.test(quota) || !/^\d+$/.test(period)) return undefined;
  const share = Number(quota) / Number(period);
  return share > 0 && Number.isFinite(share) ? share : undefined;
}

/**
 * The process's cgroup path from /proc/self/cgroup: v2's line is `0::/path`, v1's lines name
 * their controllers (`4:cpu,cpuacct:/path`).
 */
function cgroupPath(ownCgroups: string, version: 'v1' | 'v2'): string {
  for (const line of ownCgroups.split('\n')) {
    const [id, controllers, own] = line.split(':');
    if (own === undefined) continue;
    const matches =
      version === 'v2'
        ? id === '0' && controllers === ''
        : (controllers ?? '').split(',').includes('cpu');
    if (matches) return own;
  }
  return '/';
}

/** `base` joined with `own` and each of its ancestors, those that exist, `base` last. */
function ownFolders(base: string, own: string): string[] {
  const folders: string[] = [];
  const parts = own.split('/').filter(Boolean);
  for (let depth = parts.length; depth >= 0; depth -= 1) {
    const folder = path.join(base, ...parts.slice(0, depth));
    if (fs.existsSync(folder)) folders.push(folder);
  }
  return folders;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
