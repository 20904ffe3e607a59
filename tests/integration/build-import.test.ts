import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Importing the server build does nothing (ADR 0053): a tool, a test or a second server that
 * loads it writes no install id or session secret into ./data and starts no vendor mocks. The web
 * server does that work when it starts (`webServer.start`), the start when it reads the config.
 */
describe('the server build', () => {
  it('writes nothing and starts nothing when imported', () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-import-'));
    const build = path.resolve('build/server/index.js');
    const { DATA_DIR: _, SESSION_SECRET: __, ...environment } = process.env;
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const build = await import(${JSON.stringify(build)});
         console.log('exports', typeof build.entry.module.webServer.start);`,
      ],
      { cwd, env: { ...environment, LOG_LEVEL: 'info' }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // Its entry is there to start, and nothing was logged: no mocks started.
    expect(result.stdout).toBe('exports function\n');
    expect(fs.readdirSync(cwd)).toEqual([]);
  });
});
