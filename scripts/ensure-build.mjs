// Plain JavaScript on purpose: `npm start` runs this before the compiled start, with nothing
// but node (an install without the development tools must still start from its build).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = [
  'app',
  'server',
  'jobs',
  'scripts',
  'db',
  'mocks',
  'public',
  'remix.config.js',
  'vite.config.ts',
  'package-lock.json',
];
/** The last file `npm run build` writes. */
export const BUILT = path.join(root, 'build', 'bin', 'start.js');
export const SERVER_BUILD = path.join(root, 'build', 'server', 'index.js');

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  // Tests are not part of the build.
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(target) ? 0 : stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce(
      (newest, entry) => Math.max(newest, newestMtime(path.join(target, entry))),
      stat.mtimeMs,
    );
}

export function buildIsStale() {
  if (!fs.existsSync(BUILT) || !fs.existsSync(SERVER_BUILD)) return true;
  const built = Math.min(fs.statSync(BUILT).mtimeMs, fs.statSync(SERVER_BUILD).mtimeMs);
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

/** Builds the app when its build is missing or older than its sources (`npm run build`). */
export function ensureBuild(log = (line) => console.error(line)) {
  if (!buildIsStale()) return;
  // An install without the build tools (the Docker image) runs the build it ships.
  if (fs.existsSync(BUILT) && !fs.existsSync(path.join(root, 'node_modules', '@remix-run', 'dev')))
    return;
  log('[coursegen] Building the app (npm run build)...');
  // Its output goes to stderr: a script's own output (a backup's path) stays alone on stdout.
  // Warnings and errors only: the list of every file built says nothing to someone starting it.
  const result = spawnSync('npm', ['run', 'build', '--silent', '--', '--quiet'], {
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  if (result.status !== 0) {
    console.error('[coursegen] The build failed; see the output above.');
    process.exit(1);
  }
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url))
  ensureBuild();
