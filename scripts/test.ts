import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findOrStartRedis } from './lib/redis';
import { aptInstall } from './lib/system';

/**
 * `npm test`: typecheck, lint, production build, then unit, integration and
 * browser tests. Finds (or installs) Chromium and Redis, and finds PostgreSQL, first; never
 * skips the browser or PostgreSQL tests. Ends with one line: "N passed, N failed".
 */
const say = (line: string) => console.log(`[test] ${line}`);

function run(label: string, command: string, args: string[], env = process.env): boolean {
  say(label);
  return spawnSync(command, args, { stdio: 'inherit', env }).status === 0;
}

function ensureChromium(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (found) return found;
  if (aptInstall(['chromium'], say) && fs.existsSync('/usr/bin/chromium'))
    return '/usr/bin/chromium';
  console.error(
    '[test] Chromium is needed for the browser tests and was not found.\n' +
      '       Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROME_PATH.',
  );
  process.exit(1);
}

/**
 * promtool checks the metrics a running app serves (tests/integration/observability.test.ts):
 * PROMTOOL_PATH, else Debian's `prometheus` package, installed as Chromium is.
 */
function ensurePromtool(): string {
  const candidates = [process.env.PROMTOOL_PATH, '/usr/bin/promtool'];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (found) return found;
  if (aptInstall(['prometheus'], say) && fs.existsSync('/usr/bin/promtool'))
    return '/usr/bin/promtool';
  console.error(
    '[test] promtool is needed to check the metrics and was not found.\n' +
      '       Install it (Debian/Ubuntu: sudo apt-get install prometheus) or set PROMTOOL_PATH.',
  );
  process.exit(1);
}

/** Where the tests' PostgreSQL is when TEST_DATABASE_URL does not say. */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The PostgreSQL server the integration tests run against too (each test file makes its own
 * database there and drops it): TEST_DATABASE_URL, else 127.0.0.1:5432 as user postgres. None
 * answering is a failure, not a reason to skip them.
 */
async function findPostgres(): Promise<string> {
  const url = process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return url;
  } catch (error) {
    const where = new URL(url);
    where.password = where.password ? '***' : '';
    console.error(
      `[test] PostgreSQL did not answer at ${where} (${(error as Error).message}).\n` +
        '       The integration tests run on SQLite and on PostgreSQL. Start one on this machine:\n' +
        '         Debian/Ubuntu: sudo apt-get install postgresql && sudo service postgresql start\n' +
        "         (its user postgres must connect from 127.0.0.1 without a password: 'trust' for\n" +
        '         host 127.0.0.1/32 in pg_hba.conf), or set TEST_DATABASE_URL to a server whose user\n' +
        '         may create databases, e.g. postgres://user:password@host:5432/postgres.',
    );
    process.exit(1);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Two vitest runs side by side, of about equal length: the tests wait mostly on the processes,
 * browser and databases they drive, so on two cores together they take little more than the
 * longer run alone. Within a run, files go one at a time (vitest.config.ts).
 */
const TEST_RUNS = [
  { name: 'sqlite', projects: ['unit', 'integration', 'newcomer'] },
  { name: 'browser+postgres', projects: ['e2e', 'integration-postgres'] },
];

/** Runs a command with each line of its output marked with `label`; resolves to its success. */
function runLabelled(label: string, command: string, args: string[], env: NodeJS.ProcessEnv) {
  say(`${label}: ${command} ${args.join(' ')}`);
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const relay = (from: NodeJS.ReadableStream, to: NodeJS.WriteStream) => {
    let partial = '';
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) to.write(`[${label}] ${line}\n`);
    });
    from.on('end', () => partial && to.write(`[${label}] ${partial}\n`));
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  return new Promise<boolean>((resolve) => child.on('close', (code) => resolve(code === 0)));
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  success: boolean;
}

async function main() {
  const chromePath = ensureChromium();
  const promtoolPath = ensurePromtool();
  const postgres = await findPostgres();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-test-'));
  const redis = await findOrStartRedis(process.env.REDIS_URL, scratch, say);
  const env = {
    ...process.env,
    CHROME_PATH: chromePath,
    PROMTOOL_PATH: promtoolPath,
    REDIS_URL: redis.url,
    TEST_DATABASE_URL: postgres,
  };

  try {
    // The type checker and the type-aware linter each keep one core busy for minutes: side by
    // side they take little more than the longer of the two.
    const [typed, linted] = await Promise.all([
      runLabelled('typecheck', 'npx', ['tsc', '--noEmit'], process.env),
      runLabelled('lint', 'npx', ['eslint', '--max-warnings=0', '.'], process.env),
    ]);
    const checks =
      typed &&
      linted &&
      // Unused files, exports and dependencies (knip.ts, ADR 0053).
      run('unused code', 'npx', ['knip']) &&
      run('format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']) &&
      run('build', 'npm', ['run', '--silent', 'build', '--', '--quiet']);
    if (!checks) {
      console.log('0 passed, 1 failed');
      process.exitCode = 1;
      return;
    }
    const results = await Promise.all(
      TEST_RUNS.map(async ({ name, projects }) => {
        const reportFile = path.join(scratch, `vitest-${name}.json`);
        const args = ['vitest', 'run', ...projects.flatMap((project) => ['--project', project])];
        args.push('--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`);
        const ok = await runLabelled(name, 'npx', args, env);
        const report = fs.existsSync(reportFile)
          ? (JSON.parse(fs.readFileSync(reportFile, 'utf8')) as VitestReport)
          : undefined;
        // A run that failed outside any test (a setup error) still counts as one failure.
        return {
          ok,
          passed: report?.numPassedTests ?? 0,
          failed: Math.max(report?.numFailedTests ?? 0, ok ? 0 : 1),
          skipped: report?.numPendingTests ?? 0,
        };
      }),
    );
    const total = (key: 'passed' | 'failed' | 'skipped') =>
      results.reduce((sum, result) => sum + result[key], 0);
    const ok = results.every((result) => result.ok);
    const skipped = total('skipped');
    console.log(
      `${total('passed')} passed, ${total('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    redis.child?.kill('SIGTERM');
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
