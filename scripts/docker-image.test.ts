import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** What the image promises a self-hoster, read from the files it is built from (no Docker here). */
const dockerfile = fs.readFileSync('Dockerfile', 'utf8');
const ignored = fs.readFileSync('.dockerignore', 'utf8').split('\n');
const example = fs.readFileSync('.env.example', 'utf8');

describe('the Docker image', () => {
  it("leaves the code owned by root: only /data is the app user's to write", () => {
    expect(dockerfile).not.toMatch(/COPY[^\n]*--chown/);
    expect(dockerfile).toMatch(/chown node:node \/data/);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it("ships better-sqlite3's compiled addon without its sources and build leftovers", () => {
    expect(dockerfile).toMatch(/rm -rf build deps src/);
    expect(dockerfile).toMatch(/mv \/tmp\/better_sqlite3\.node build\/Release\//);
  });

  it('builds from no dependencies, data, secrets, logs or caches', () => {
    for (const pattern of [
      '**/node_modules',
      '**/data',
      '**/.env',
      '**/*.log',
      '**/.cache',
      'coverage',
    ])
      expect(ignored, pattern).toContain(pattern);
  });

  it('installs with the dependency patches applied (they must be there before npm ci)', () => {
    const patches = dockerfile.indexOf('COPY patches ./patches');
    expect(patches).toBeGreaterThan(0);
    expect(patches).toBeLessThan(dockerfile.indexOf('RUN npm ci'));
    expect(ignored).not.toContain('patches');
  });

  it('runs with --env-file .env made from .env.example without overriding its /data volume', () => {
    expect(example).not.toMatch(/^DATA_DIR=/m);
    expect(dockerfile).toMatch(/ENV DATA_DIR=\/data/);
  });
});
