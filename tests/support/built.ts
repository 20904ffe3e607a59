import path from 'node:path';
import { ensureBuild } from '../../scripts/ensure-build.mjs';

/** A compiled entry of `npm run build` (build/bin), which tests run with plain node, as production does. */
export function builtEntry(
  name: 'start' | 'web' | 'web-process' | 'worker' | 'migrate' | 'backup' | 'restore' | 'prepare',
) {
  return path.resolve('build', 'bin', `${name}.js`);
}

/** Vitest global setup: tests that start processes run the current sources' build. */
export default function setup() {
  ensureBuild();
}
