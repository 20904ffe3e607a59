import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'public', 'remix.config.js', 'vite.config.ts', 'package-lock.json'];
export const SERVER_BUILD = path.join('build', 'server', 'index.js');

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce(
      (newest, entry) => Math.max(newest, newestMtime(path.join(target, entry))),
      stat.mtimeMs,
    );
}

export function buildIsStale(): boolean {
  if (!fs.existsSync(SERVER_BUILD)) return true;
  const built = fs.statSync(SERVER_BUILD).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > built);
}

/** Builds the web app when it is missing or older than its sources. */
export function ensureBuild(log: (line: string) => void) {
  if (!buildIsStale()) return;
  // A production image ships the build without the build tools; use what is there.
  if (fs.existsSync(SERVER_BUILD) && !fs.existsSync('node_modules/@remix-run/dev')) return;
  log('Building the web app...');
  const result = spawnSync('npx', ['remix', 'vite:build'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The build failed; see the output above.');
}
