import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { availableCores, parseCfsQuota, parseCpuMax } from './cpu-limit';

/**
 * The default WEB_CONCURRENCY counted the machine's cores and ignored a container's CPU quota
 * (issue 35, item 11d: two web processes under `docker run --cpus 0.5`). Fixture cgroup folders
 * as Docker and systemd lay them out.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A cgroup root holding `files` (relative path → contents) and a /proc/self/cgroup. */
function fixture(ownCgroup: string, files: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-cgroup-'));
  folders.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, 'fs', file)), { recursive: true });
    fs.writeFileSync(path.join(root, 'fs', file), text);
  }
  fs.writeFileSync(path.join(root, 'cgroup'), ownCgroup);
  return { cgroupRoot: path.join(root, 'fs'), ownCgroupFile: path.join(root, 'cgroup') };
}

describe('parsing the quota files', () => {
  it('reads cgroup v2 cpu.max', () => {
    expect(parseCpuMax('50000 100000\n')).toBe(0.5);
    expect(parseCpuMax('150000 100000')).toBe(1.5);
    expect(parseCpuMax('max 100000\n')).toBeUndefined();
    expect(parseCpuMax('')).toBeUndefined();
    expect(parseCpuMax(undefined)).toBeUndefined();
  });

  it('reads cgroup v1 cfs_quota_us over cfs_period_us', () => {
    expect(parseCfsQuota('50000\n', '100000\n')).toBe(0.5);
    expect(parseCfsQuota('200000', '100000')).toBe(2);
    expect(parseCfsQuota('-1\n', '100000\n')).toBeUndefined();
    expect(parseCfsQuota('50000', undefined)).toBeUndefined();
    expect(parseCfsQuota('0', '100000')).toBeUndefined();
  });
});

describe('the cores the web processes default to', () => {
  it('cgroup v2 in a container (--cpus 0.5, 1.5): the quota rounded up, at least 1', () => {
    expect(
      availableCores({ ...fixture('0::/\n', { 'cpu.max': '50000 100000\n' }), cores: 2 }),
    ).toBe(1);
    expect(
      availableCores({ ...fixture('0::/\n', { 'cpu.max': '150000 100000\n' }), cores: 8 }),
    ).toBe(2);
  });

  it('no quota, or more than the machine has: the cores', () => {
    expect(availableCores({ ...fixture('0::/\n', { 'cpu.max': 'max 100000\n' }), cores: 4 })).toBe(
      4,
    );
    expect(availableCores({ ...fixture('0::/\n', { 'cpu.max': '800000 100000' }), cores: 2 })).toBe(
      2,
    );
    expect(availableCores({ ...fixture('0::/\n', {}), cores: 3 })).toBe(3);
  });

  it('cgroup v2 on a host (a systemd unit): the tightest quota of its cgroup and its parents', () => {
    const unit = fixture('0::/system.slice/coursegen.service\n', {
      'system.slice/cpu.max': '100000 100000\n',
      'system.slice/coursegen.service/cpu.max': '300000 100000\n',
    });
    expect(availableCores({ ...unit, cores: 8 })).toBe(1);
  });

  it('cgroup v1 in a container (its path in /proc is the host one): the quota of the mounted root', () => {
    const container = fixture('12:cpu,cpuacct:/docker/0123abcd\n4:memory:/docker/0123abcd\n', {
      'cpu,cpuacct/cpu.cfs_quota_us': '50000\n',
      'cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    });
    expect(availableCores({ ...container, cores: 2 })).toBe(1);
    const unlimited = fixture('3:cpu:/\n', {
      'cpu/cpu.cfs_quota_us': '-1\n',
      'cpu/cpu.cfs_period_us': '100000\n',
    });
    expect(availableCores({ ...unlimited, cores: 2 })).toBe(2);
  });
});
