import fs from 'node:fs';
import { createRequire, register } from 'node:module';

/** OpenTelemetry's packages, and the module hooks its instrumentations load. */
const RECORDED = /\/(@opentelemetry|import-in-the-middle|require-in-the-middle)\//;

/**
 * Given to an app's processes with `--import` (tests/integration/tracing.test.ts): writes every
 * module of OpenTelemetry (or of its module hooks) the process loads to OPENTELEMETRY_LOADS_FILE,
 * the ES modules as they resolve (opentelemetry-loads-hooks.mjs), the CommonJS ones in require's
 * cache at exit.
 */
const file = process.env.OPENTELEMETRY_LOADS_FILE;
if (file) {
  register('./opentelemetry-loads-hooks.mjs', import.meta.url, { data: { file } });
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => {
    const loaded = Object.keys(cache).filter((name) => RECORDED.test(name));
    if (loaded.length) fs.appendFileSync(file, loaded.map((name) => `${name}\n`).join(''));
  });
}
