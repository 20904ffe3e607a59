import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench [name]`: runs every benchmark in bench/ (each file but this
 * one), or only bench/<name>.ts, each in its own process. Exits non-zero if
 * any benchmark fails or misses its target.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const all = fs
  .readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

const wanted = process.argv[2];
if (wanted && !all.includes(wanted)) {
  console.error(`No benchmark named "${wanted}". Available: ${all.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const name of wanted ? [wanted] : all) {
  console.log(`\n== bench/${name}.ts ==`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, `${name}.ts`)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed += 1;
}
process.exitCode = failed > 0 ? 1 : 0;
