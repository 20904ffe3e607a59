import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { builtEntry } from '../support/built';

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, [builtEntry('start')], {
    env: { ...process.env, NODE_ENV: 'production', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('npm start', () => {
  it.each([
    [{ PORT: 'eighty' }, 'Invalid environment variable PORT'],
    [{ REDIS_URL: 'localhost:6379' }, 'Invalid environment variable REDIS_URL'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'Invalid environment variable ADMIN_EMAIL'],
    [{ SESSION_SECRET: 'short' }, 'Invalid environment variable SESSION_SECRET'],
  ])('refuses to boot with %o and names the variable', (env, message) => {
    const result = start(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stdout).not.toContain('CourseGen is running');
  });
});
