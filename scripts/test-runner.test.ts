import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** `npm test` runs the integration tests on PostgreSQL too, so it needs one and says so. */
describe('npm test without PostgreSQL', () => {
  it('says how to get one and fails, rather than skipping those tests', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test.ts'], {
      env: {
        ...process.env,
        // Found, so that the run gets as far as PostgreSQL.
        CHROME_PATH: process.execPath,
        PROMTOOL_PATH: process.execPath,
        TEST_DATABASE_URL: 'postgres://postgres:hidden@127.0.0.1:9/postgres',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'PostgreSQL did not answer at postgres://postgres:***@127.0.0.1:9/postgres',
    );
    expect(result.stderr).toContain(
      'sudo apt-get install postgresql && sudo service postgresql start',
    );
    expect(result.stderr).toContain('TEST_DATABASE_URL');
    expect(result.stderr).not.toContain('hidden');
    // Nothing else ran: no typecheck, no tests.
    expect(result.stdout).not.toContain('[test] typecheck');
  });
});
