import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The project's folder (where package.json is), found from this module whether it runs from
 * its source file or from a bundle under `build/`: files the app reads at run time (fonts,
 * public images, migrations, compiled threads) are found from here, whatever the working
 * directory.
 */
export function projectRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return (root = process.cwd());
    dir = parent;
  }
  return (root = dir);
}

/** A path inside the project folder. */
export function projectPath(...segments: string[]): string {
  return path.join(projectRoot(), ...segments);
}
