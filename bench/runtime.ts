import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { freePort } from '../scripts/lib/system';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../tests/support/redis';

/**
 * `npm run bench -- runtime` (issue 26, ADR 0028): how long the app takes from its start command
 * to a 200 on /healthz, and how much memory the whole app holds once idle (the start, the web
 * processes and the worker, summed from /proc; Redis not counted). The compiled start (`node
 * build/bin/start.js`) against the tsx start of BENCH_BASELINE_REF (default: the last commit
 * that ran TypeScript at run time), checked out beside this one, built, and run alternately in
 * the same run on the same Redis, WEB_CONCURRENCY and machine. Each start is a restart on an
 * existing data folder (migrated, admin seeded), as most starts are.
 */
const BASELINE_REF = process.env.BENCH_BASELINE_REF ?? 'fb01716';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5_000);
const WEB_CONCURRENCY = process.env.WEB_CONCURRENCY ?? String(os.availableParallelism());
const START_TARGET_MS = 3_000;
const MEMORY_TARGET = 0.4;

interface Variant {
  name: string;
  cwd: string;
  command: string[];
}

interface Sample {
  startMs: number;
  /** Resident memory of each process of the app once idle, MB, by role. */
  rss: { role: string; mb: number }[];
}

function baselineCheckout(): string {
  const dir = path.join(os.tmpdir(), `coursegen-bench-baseline-${BASELINE_REF}`);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync('git', ['worktree', 'prune']);
    execFileSync('git', ['worktree', 'add', '--detach', dir, BASELINE_REF], { stdio: 'ignore' });
    // The same packages (the baseline's are a subset): its start ran them through tsx.
    fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  }
  if (!fs.existsSync(path.join(dir, 'build', 'server', 'index.js'))) {
    console.log(`Building the baseline (${BASELINE_REF}) in ${dir}...`);
    const built = spawnSync('npx', ['remix', 'vite:build', '--logLevel', 'warn'], {
      cwd: dir,
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('the baseline build failed');
  }
  return dir;
}

/** Every process below `root` (its children, theirs...), with the command of each. */
function descendants(root: number): { pid: number; command: string }[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parentOf.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: { pid: number; command: string }[] = [];
  const visit = (parent: number) => {
    for (const [pid, ppid] of parentOf)
      if (ppid === parent) {
        let command = '';
        try {
          command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        } catch {
          continue;
        }
        found.push({ pid, command });
        visit(pid);
      }
  };
  visit(root);
  return found;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function role(command: string): string {
  if (/web-process|web-server/.test(command)) return 'web';
  if (/scripts\/web\.ts/.test(command)) return 'web primary';
  if (/worker/.test(command)) return 'worker';
  if (/esbuild/.test(command)) return 'esbuild (tsx)';
  return 'other';
}

async function measure(variant: Variant, dataDir: string, prefix: string): Promise<Sample> {
  const port = await freePort();
  const startedAt = performance.now();
  const child: ChildProcess = spawn(variant.command[0]!, variant.command.slice(1), {
    cwd: variant.cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      DEMO_MODE: 'true',
      ADMIN_EMAIL: 'admin@bench.test',
      ADMIN_PASSWORD: 'admin-password-123',
      WEB_CONCURRENCY,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    let startMs = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant.name} exited while starting`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) {
        startMs = performance.now() - startedAt;
        break;
      }
      if (performance.now() - startedAt > 120_000) throw new Error(`${variant.name}: no start`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const processes = [
      { pid: child.pid!, command: 'start' },
      ...descendants(child.pid!).filter(({ command }) => !command.includes('redis-server')),
    ];
    const rss = processes.map(({ pid, command }) => ({
      role: command === 'start' ? 'start' : role(command),
      mb: rssMb(pid),
    }));
    return { startMs, rss };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const total = (sample: Sample) => sample.rss.reduce((sum, { mb }) => sum + mb, 0);

async function main() {
  ensureBuild((line) => console.log(line));
  const variants: Variant[] = [
    {
      name: `tsx start (${BASELINE_REF})`,
      cwd: baselineCheckout(),
      command: [process.execPath, '--import', 'tsx', 'scripts/start.ts'],
    },
    {
      name: 'compiled start',
      cwd: process.cwd(),
      command: [process.execPath, 'build/bin/start.js'],
    },
  ];
  const samples = new Map<Variant, Sample[]>(variants.map((variant) => [variant, []]));
  const folders = variants.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-bench-')));
  const prefixes = variants.map(() => `coursegen-bench-${randomBytes(4).toString('hex')}`);
  try {
    // A first start of each migrates and seeds its data folder; it is not counted.
    for (const [index, variant] of variants.entries())
      await measure(variant, folders[index]!, prefixes[index]!);
    for (let round = 0; round < ROUNDS; round += 1) {
      // A B, then B A: neither always goes first on a machine that warms up or cools down.
      const order = round % 2 ? [...variants.entries()].reverse() : [...variants.entries()];
      for (const [index, variant] of order) {
        const sample = await measure(variant, folders[index]!, prefixes[index]!);
        samples.get(variant)!.push(sample);
        console.log(
          `round ${round + 1} ${variant.name.padEnd(24)} start ${sample.startMs.toFixed(0)} ms, ` +
            `idle ${total(sample).toFixed(0)} MB`,
        );
      }
    }
  } finally {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    for (const prefix of prefixes) await deleteRedisPrefix(prefix);
  }

  const [old, compiled] = variants.map((variant) => samples.get(variant)!) as [Sample[], Sample[]];
  const startOld = median(old.map((s) => s.startMs));
  const startNew = median(compiled.map((s) => s.startMs));
  const memoryOld = median(old.map(total));
  const memoryNew = median(compiled.map(total));
  const breakdown = (list: Sample[]) => {
    const last = list.at(-1)!;
    const byRole = new Map<string, number[]>();
    for (const { role: name, mb } of last.rss) byRole.set(name, [...(byRole.get(name) ?? []), mb]);
    return [...byRole]
      .map(([name, mbs]) => `${name} ${mbs.map((mb) => mb.toFixed(0)).join(' + ')}`)
      .join(', ');
  };
  const reduction = 1 - memoryNew / memoryOld;
  console.log(`\nWEB_CONCURRENCY=${WEB_CONCURRENCY}, ${ROUNDS} interleaved rounds, medians:`);
  console.log(
    `| Measure                         | tsx start | compiled | Ratio | Target         |`,
  );
  console.log(
    `| ------------------------------- | --------- | -------- | ----- | -------------- |`,
  );
  console.log(
    `| Start to /healthz 200           | ${startOld.toFixed(0)} ms | ${startNew.toFixed(0)} ms | ` +
      `${(startNew / startOld).toFixed(2)}× | ≤ ${START_TARGET_MS} ms |`,
  );
  console.log(
    `| Idle memory, whole app (MB RSS) | ${memoryOld.toFixed(0)} | ${memoryNew.toFixed(0)} | ` +
      `${(memoryNew / memoryOld).toFixed(2)}× | ≥ ${MEMORY_TARGET * 100}% less |`,
  );
  console.log(`\ntsx start, by process (MB): ${breakdown(old)}`);
  console.log(`compiled start, by process (MB): ${breakdown(compiled)}`);
  const met = startNew <= START_TARGET_MS && reduction >= MEMORY_TARGET;
  console.log(met ? '\nTargets met.' : '\nTarget missed.');
  process.exitCode = met ? 0 : 1;
}

await main();
