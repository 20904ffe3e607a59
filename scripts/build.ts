import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { build } from 'esbuild';

/**
 * `npm run build` (`--quiet`: warnings only): Remix's build (`build/client`, `build/server`),
 * then the start, the web server, the worker, the maintenance scripts and the worker threads,
 * bundled for plain `node` into `build/bin` and `build/threads` (ADR 0028). Packages stay in node_modules; the app's own modules are bundled,
 * shared ones in chunks. The web server takes the app itself from the Remix build, so it imports
 * none of the app's modules (eslint's layer rules check that). No source maps: nothing reads them.
 */
const entries = {
  'bin/start': 'scripts/start.ts',
  'bin/prepare': 'scripts/prepare.ts',
  'bin/web': 'scripts/web.ts',
  'bin/web-process': 'server/web-process.ts',
  'bin/worker': 'jobs/main.ts',
  'bin/migrate': 'scripts/migrate.ts',
  'bin/backup': 'scripts/backup.ts',
  'bin/restore': 'scripts/restore.ts',
  'threads/sanitize-html': 'app/utils/sanitize-html-thread.server.ts',
  'threads/export': 'app/services/export/export-thread.server.ts',
  'threads/material': 'app/services/material/extract-thread.server.ts',
};

const quiet = process.argv.includes('--quiet');
const remix = spawnSync('npx', ['remix', 'vite:build', ...(quiet ? ['--logLevel', 'warn'] : [])], {
  stdio: 'inherit',
});
if (remix.status !== 0) process.exit(remix.status ?? 1);

for (const folder of ['build/bin', 'build/threads'])
  fs.rmSync(folder, { recursive: true, force: true });
const result = await build({
  entryPoints: entries,
  outdir: 'build',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'bin/chunks/[name]-[hash]',
  tsconfig: 'tsconfig.json',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, out) => sum + out.bytes, 0);
if (!quiet)
  console.log(
    `build/bin, build/threads: ${Object.keys(entries).length} entries, ${(bytes / 1024).toFixed(0)} KiB`,
  );
