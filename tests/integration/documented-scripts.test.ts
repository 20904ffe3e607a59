import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/system';
import { deleteRedisPrefix, TEST_REDIS_URL } from '../support/redis';

/**
 * The commands of the README and its guides in docs/ work as written: every `npm run X` they
 * name exists and its program is installed, and "running the pieces separately"
 * (docs/self-hosting.md: migrate, then start:web and start:worker) gives the project's own web
 * server, with its security headers, and a worker. The ADRs are records of their time, not
 * instructions, and are not read.
 */
const guides = fs
  .readdirSync('docs')
  .filter((name) => name.endsWith('.md'))
  .map((name) => path.join('docs', name));
const documentation = ['README.md', ...guides].map((file) => fs.readFileSync(file, 'utf8'));
const scripts = (
  JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const documented = [
  ...new Set(
    documentation.flatMap((text) => [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!)),
  ),
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-pieces-'));
const prefix = `coursegen-pieces-${randomBytes(4).toString('hex')}`;
afterAll(async () => {
  await deleteRedisPrefix(prefix);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the documented npm scripts', () => {
  it('are all defined, and each one’s program runs', () => {
    expect(documented).toEqual(
      expect.arrayContaining(['build', 'db:migrate', 'start:web', 'start:worker', 'bench']),
    );
    for (const name of documented) {
      const command = scripts[name];
      expect(command, `npm run ${name}`).toBeTruthy();
      // Each step of the script: `node FILE` (the compiled entries, after ensure-build) or a
      // program npm installed. `exec` replaces npm's shell, so signals sent to npm reach it.
      for (const step of command!.split('&&').map((part) => part.trim().replace(/^exec /, ''))) {
        const [program, first] = step.split(' ');
        if (program === 'node') {
          const file = path.resolve(first!);
          // The compiled entries exist once built (the integration tests' global setup builds).
          expect(fs.existsSync(file), `${first} (npm run ${name})`).toBe(true);
          continue;
        }
        const binary = path.resolve('node_modules/.bin', program!);
        expect(fs.existsSync(binary), `${program} (npm run ${name}) is installed`).toBe(true);
        const version = spawnSync(binary, ['--version'], { encoding: 'utf8' });
        expect(version.status, `${program} --version`).toBe(0);
      }
    }
  });

  it('run the pieces separately: db:migrate, start:web (the real web server) and start:worker', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      DEMO_MODE: 'true',
      LOG_LEVEL: 'info',
    };
    const migrated = spawnSync('npm', ['run', '--silent', 'db:migrate'], { env, encoding: 'utf8' });
    expect(migrated.status, migrated.stderr).toBe(0);

    const pieces = ['start:web', 'start:worker'].map((script) => {
      let output = '';
      const child = spawn('npm', ['run', '--silent', script], { env, detached: true });
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return { child, output: () => output };
    });
    try {
      const deadline = Date.now() + 60_000;
      let response: Response | undefined;
      while (!response && Date.now() < deadline) {
        response = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
        if (!response) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(response?.status, pieces[0]!.output()).toBe(200);
      // Only the project's own server adds a per-request CSP nonce and refuses cross-site posts.
      expect(response!.headers.get('content-security-policy')).toMatch(/'nonce-[^']+'/);
      const crossSite = await fetch(`http://127.0.0.1:${port}/api/contact`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(crossSite.status).toBe(403);
      while (!pieces[1]!.output().includes('"worker.ready"') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 250));
      expect(pieces[1]!.output()).toContain('"worker.ready"');
    } finally {
      for (const { child } of pieces) if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
  });
});
