import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** What the image promises a self-hoster, read from the files it is built from (no Docker here). */
const dockerfile = fs.readFileSync('Dockerfile', 'utf8');
const ignored = fs.readFileSync('.dockerignore', 'utf8').split('\n');
const example = fs.readFileSync('.env.example', 'utf8');
const runtimeStage = dockerfile.slice(dockerfile.indexOf('FROM base AS runtime'));
const runtimeDepsStage = dockerfile.slice(
  dockerfile.indexOf('FROM deps AS runtime-deps'),
  dockerfile.indexOf('FROM base AS runtime'),
);
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { license: string };
/** What the runtime stage copies into /app: `COPY [--from=x] SOURCE ./TARGET`. */
const copied = [...runtimeStage.matchAll(/^COPY (?:--from=(\S+) )?(\S+) (\S+)$/gm)].map(
  ([, stage, source, target]) => ({ stage, source: source!, target: target! }),
);

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the Docker image', () => {
  it("leaves the code owned by root: only /data is the app user's to write", () => {
    expect(dockerfile).not.toMatch(/COPY[^\n]*--chown/);
    expect(dockerfile).toMatch(/chown node:node \/data/);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('runs the compiled start with plain node, no TypeScript at run time', () => {
    expect(runtimeStage).toMatch(/^CMD \["node", "build\/bin\/start\.js"\]$/m);
    expect(runtimeStage).not.toMatch(/tsx/);
    // Only the build, production packages and the files the app reads at run time: no sources,
    // tests or build tools.
    expect(copied.map(({ source }) => source).sort()).toEqual(
      [
        '/app/build',
        '/app/node_modules',
        'app/assets/fonts',
        'migrations',
        'package.json',
        'public',
      ].sort(),
    );
    expect(copied.find(({ source }) => source === '/app/node_modules')?.stage).toBe('runtime-deps');
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
  });

  it('carries every project file the app reads at run time', () => {
    // projectPath('public', ...), projectPath('migrations'): the first folders it names.
    const read = new Set<string>();
    for (const file of [...sourceFiles('app'), ...sourceFiles('db')]) {
      if (file.includes('.test.')) continue;
      for (const [, args] of fs.readFileSync(file, 'utf8').matchAll(/projectPath\(([^)]*)\)/g)) {
        const segments = [...args!.matchAll(/'([^']+)'/g)].map(([, segment]) => segment!);
        if (segments.length > 0 && segments[0] !== 'build') read.add(segments.join('/'));
      }
    }
    expect([...read]).not.toEqual([]);
    for (const needed of read)
      expect(
        copied.some(({ source }) => needed === source || needed.startsWith(`${source}/`)),
        `${needed} is copied into the image`,
      ).toBe(true);
  });

  it("ships better-sqlite3's compiled addon without its sources, and no source maps or .d.ts", () => {
    expect(dockerfile).toMatch(/rm -rf build deps src/);
    expect(dockerfile).toMatch(/mv \/tmp\/better_sqlite3\.node build\/Release\//);
    expect(dockerfile).toMatch(/-name '\*\.map'/);
    expect(dockerfile).toMatch(/-name '\*\.d\.ts'/);
  });

  it("leaves out the dependencies' TypeScript sources and test files, keeping what runs", () => {
    // The stage's `find node_modules …` commands, run on a small node_modules of each kind of file.
    const commands = [...runtimeDepsStage.matchAll(/^RUN ((?:.*\\\n)*.*)$/gm)]
      .flatMap(([, command]) => command!.replace(/\\\n/g, ' ').split('&&'))
      .map((command) => command.trim())
      .filter((command) => command.startsWith('find node_modules'));
    expect(commands.length).toBeGreaterThan(0);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-image-files-'));
    try {
      const files = {
        kept: [
          'zod/index.js',
          'zod/package.json',
          'pg-protocol/dist/parser.js',
          'safe-regex-test/index.js',
          'better-sqlite3/build/Release/better_sqlite3.node',
        ],
        removed: [
          'zod/src/v4/core/api.ts',
          'zod/src/v4/core/tests/index.test.ts',
          'zod/index.d.ts',
          'zod/index.d.cts',
          'pkg/lib/index.mts',
          'pkg/lib/index.js.map',
          'pg-protocol/dist/inbound-parser.test.js',
          'web-encoding/test/test-lib.spec.mjs',
          'qs/test/parse.js',
          'node-abort-controller/__tests__/index.js',
          'domutils/src/__snapshots__/feeds.spec.ts.snap',
        ],
      };
      for (const file of [...files.kept, ...files.removed]) {
        fs.mkdirSync(path.dirname(path.join(root, 'node_modules', file)), { recursive: true });
        fs.writeFileSync(path.join(root, 'node_modules', file), '');
      }
      for (const command of commands) {
        const ran = spawnSync('sh', ['-c', command], { cwd: root, encoding: 'utf8' });
        expect(ran.status, `${command}: ${ran.stderr}`).toBe(0);
      }
      const left = fs
        .readdirSync(path.join(root, 'node_modules'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) =>
          path.relative(path.join(root, 'node_modules'), path.join(entry.parentPath, entry.name)),
        );
      expect(left.sort()).toEqual([...files.kept].sort());
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('says what it is in OCI labels: the version the app reports, the commit, the licence', () => {
    for (const [label, value] of [
      ['version', '${VERSION}'],
      ['revision', '${REVISION}'],
      ['created', '${CREATED}'],
      ['licenses', pkg.license],
    ])
      expect(runtimeStage).toContain(`org.opencontainers.image.${label}="${value}"`);
    for (const arg of ['VERSION', 'REVISION', 'CREATED'])
      expect(runtimeStage).toMatch(new RegExp(`^ARG ${arg}$`, 'm'));
    // A VERSION other than package.json's (which the app reports) fails the build.
    const buildStage = dockerfile.slice(
      dockerfile.indexOf('FROM deps AS build'),
      dockerfile.indexOf('FROM deps AS runtime-deps'),
    );
    expect(buildStage).toMatch(/^ARG VERSION$/m);
    expect(buildStage).toContain(
      `test "$VERSION" = "$(node -p "require('./package.json').version")"`,
    );
  });

  it('uses its own Redis unless REDIS_URL is given, and reports healthy as soon as it answers', () => {
    expect(runtimeStage).toMatch(/^ENV .*REDIS_PRIVATE=true/m);
    expect(runtimeStage).toMatch(/HEALTHCHECK [^\n]*--start-interval=1s/);
  });

  it('names the Docker Engine its health check needs (25, for --start-interval) wherever one builds or runs it', () => {
    const docker = fs
      .readFileSync('docs/self-hosting.md', 'utf8')
      .split(/^## Docker$/m)[1]!
      .split(/^## /m)[0]!;
    const compose = fs.readFileSync('docker-compose.several-nodes.yml', 'utf8');
    const places: Record<string, string> = {
      Dockerfile: dockerfile,
      'docs/self-hosting.md, Docker': docker,
      'docker-compose.several-nodes.yml': compose,
    };
    for (const [name, text] of Object.entries(places))
      expect(text.replace(/\n#?\s*/g, ' '), name).toMatch(/Docker Engine 25 or newer/);
    // What `docker compose` needs, where Debian's own docker.io has none.
    expect(docker).toMatch(/docker-compose-plugin/);
    expect(compose).toMatch(/docker-compose-plugin/);
  });

  it('builds from no dependencies, data, secrets, logs or caches', () => {
    for (const pattern of [
      '**/node_modules',
      'build',
      '**/data',
      '**/.env',
      '**/*.log',
      '**/.cache',
      'coverage',
    ])
      expect(ignored, pattern).toContain(pattern);
  });

  it('installs with the dependency patches applied (they must be there before npm ci)', () => {
    const patches = dockerfile.indexOf('COPY patches ./patches');
    expect(patches).toBeGreaterThan(0);
    expect(patches).toBeLessThan(dockerfile.indexOf('RUN npm ci'));
    expect(ignored).not.toContain('patches');
  });

  it('runs with --env-file .env made from .env.example without overriding its /data volume', () => {
    expect(example).not.toMatch(/^DATA_DIR=/m);
    expect(dockerfile).toMatch(/ENV DATA_DIR=\/data/);
  });
});
