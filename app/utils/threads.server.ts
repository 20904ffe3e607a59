import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { projectPath, projectRoot } from './project-files.server';

/** True when this module runs from the compiled build, false from its TypeScript source. */
const compiled = !/\.tsx?$/.test(new URL(import.meta.url).pathname);

/**
 * A worker thread running one of the app's thread entries, `name` (`sanitize-html`,
 * `export`): in production the compiled `build/threads/<name>.js` with plain node; from the
 * sources (tests, development) the TypeScript file `sourceFile` through tsx's hooks, which only
 * development installs have.
 */
export function startThread(
  name: string,
  sourceFile: string,
  options: Omit<WorkerOptions, 'eval'> = {},
): Worker {
  if (compiled) return new Worker(projectPath('build', 'threads', `${name}.js`), options);
  return new Worker(sourceThread(sourceFile), { ...options, eval: true });
}

/**
 * The thread loads tsx's ESM hooks, then the source file. The hooks are tsx's declared `import`
 * export of `tsx/esm/api` (`require.resolve` would give its CommonJS one).
 */
function sourceThread(sourceFile: string): string {
  const require = createRequire(projectPath('package.json'));
  const tsxPackage = require.resolve('tsx/package.json');
  const api = (
    JSON.parse(fs.readFileSync(tsxPackage, 'utf8')) as {
      exports: Record<string, { import: { default: string } }>;
    }
  ).exports['./esm/api']!;
  const hooks = pathToFileURL(path.join(path.dirname(tsxPackage), api.import.default));
  const entry = pathToFileURL(path.join(projectRoot(), sourceFile));
  return `import(${JSON.stringify(hooks.href)})
    .then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
}
