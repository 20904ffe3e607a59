import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run lint` is eslint (the layer rule, eslint.config.js) and knip (unused files, exports and
 * dependencies, knip.ts): each is run here as the script runs it, on a scratch copy of the
 * project with a mistake planted, so the real tree is never touched while other tests read it.
 */
const lintScript = (
  JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
).scripts.lint!;

let scratch: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-lint-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file && fs.existsSync(file));
  for (const file of files) {
    fs.mkdirSync(path.join(scratch, path.dirname(file)), { recursive: true });
    fs.copyFileSync(file, path.join(scratch, file));
  }
  fs.symlinkSync(path.resolve('node_modules'), path.join(scratch, 'node_modules'), 'dir');
});

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function plant(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
  fs.appendFileSync(path.join(scratch, file), text);
}

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: scratch, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const knip = () => run(process.execPath, [path.resolve('node_modules/knip/bin/knip.js')]);

describe('npm run lint', { timeout: 180_000 }, () => {
  it('runs eslint on everything and knip', () => {
    expect(lintScript).toContain('eslint --max-warnings=0 .');
    expect(lintScript).toMatch(/(^|&& )knip( |$)/);
  });

  it('fails on an unused export, an unused file and an unused dependency', () => {
    expect(knip()).toEqual({ status: 0, output: '' });

    plant('app/domain/plans.ts', '\nexport const PLANTED_UNUSED = 1;\n');
    plant('app/utils/planted-unused.ts', 'export const nobodyImportsThis = 2;\n');
    const manifest = JSON.parse(fs.readFileSync(path.join(scratch, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    manifest.dependencies['left-pad'] = '^1.3.0';
    fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify(manifest, null, 2));

    const { status, output } = knip();
    expect(status).not.toBe(0);
    expect(output).toMatch(/Unused exports[\s\S]*PLANTED_UNUSED\s+app\/domain\/plans\.ts/);
    expect(output).toMatch(/Unused files[\s\S]*app\/utils\/planted-unused\.ts/);
    expect(output).toMatch(/Unused dependencies[\s\S]*left-pad/);
  });

  it('fails on a component that imports a service', async () => {
    // eslint.config.js as `npm run lint` loads it, less the type-aware rules (they need the
    // TypeScript program, half a minute to load; scripts/eslint-layers.test.ts has every layer).
    const eslint = new ESLint({
      cwd: scratch,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: {
          '@typescript-eslint/no-floating-promises': 'off',
          '@typescript-eslint/await-thenable': 'off',
          '@typescript-eslint/no-misused-promises': 'off',
        },
      },
    });
    const file = path.join(scratch, 'app/components/planted-service-import.tsx');
    const [result] = await eslint.lintText(
      "import { signIn } from '~/services/accounts/sign-in.server';\n\n" +
        'export const planted = signIn;\n',
      { filePath: file },
    );
    expect(result!.errorCount).toBe(1);
    expect(result!.messages[0]!.message).toContain(
      'A component may import only types from this layer',
    );
    // The same component taking only a type from the service passes.
    const [typeOnly] = await eslint.lintText(
      "import type { SignedIn } from '~/services/accounts/sign-in.server';\n\n" +
        'export const planted = (signedIn: SignedIn) => signedIn.user.name;\n',
      { filePath: file },
    );
    expect(typeOnly!.messages).toEqual([]);
  });
});
