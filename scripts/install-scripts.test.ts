import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Install scripts (README, "Installing"): npm 11 runs a dependency's install script only when
 * package.json's `allowScripts` allows it, skips it when refused (`false`), and warns about any
 * other. Every package the lock file marks `hasInstallScript` must be named there, one way or the
 * other, so a new one (a dependency's new dependency) fails this test instead of running unseen.
 */
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};
const { allowScripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  allowScripts: Record<string, boolean>;
};

/** `node_modules/a/node_modules/@scope/b` -> `@scope/b`. */
const packageName = (where: string) => where.split('node_modules/').pop()!;

const withInstallScripts = [
  ...new Set(
    Object.entries(lock.packages)
      // '' is the project itself, whose own scripts (patch-package) always run.
      .filter(([where, entry]) => where !== '' && entry.hasInstallScript)
      .map(([where]) => packageName(where)),
  ),
].sort();

describe("dependencies' install scripts", () => {
  it('are each allowed or refused by name in package.json', () => {
    expect(withInstallScripts).not.toEqual([]);
    expect(withInstallScripts.filter((name) => !(name in allowScripts))).toEqual([]);
  });

  it('run only where the product needs them: the SQLite driver and the build’s bundler', () => {
    const allowed = Object.keys(allowScripts).filter((name) => allowScripts[name] === true);
    expect(allowed.sort()).toEqual(['better-sqlite3', 'esbuild']);
    // Scarf's postinstall is a telemetry ping sent while installing.
    expect(allowScripts['@scarf/scarf']).toBe(false);
  });

  it('name no package that has none (an entry left behind by a removed dependency)', () => {
    expect(Object.keys(allowScripts).filter((name) => !withInstallScripts.includes(name))).toEqual(
      [],
    );
  });
});
