import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { onlyEnv } from './processes';

/**
 * The Dockerfile and docker-compose.several-nodes.yml read the way Docker reads them, for tests
 * that run, as plain processes, what those files would run in containers (Docker cannot run
 * here). Whatever these readers do not understand they refuse, so a file cannot say more than
 * its tests do.
 */

/** The runtime image's user: `USER node`, which is uid 1000 and gid 1000 in the node images. */
export const IMAGE_USER = { name: 'node', uid: 1000, gid: 1000 };

function dockerfileStages(text = fs.readFileSync('Dockerfile', 'utf8')) {
  const stages = new Map<string, { from: string; body: string }>();
  for (const chunk of text
    .replace(/\\\n\s*/g, ' ')
    .split(/^(?=FROM )/m)
    .slice(1)) {
    const [, from, name] = /^FROM (\S+)(?: AS (\S+))?/.exec(chunk)!;
    stages.set(name ?? from!, { from: from!, body: chunk });
  }
  return stages;
}

/** Instructions of the runtime stage and the stages it is built on, the first stage first. */
function runtimeInstructions(): string[] {
  const stages = dockerfileStages();
  const chain: string[] = [];
  for (let name: string | undefined = 'runtime'; name && stages.has(name);) {
    const stage: { from: string; body: string } = stages.get(name)!;
    chain.unshift(stage.body);
    name = stage.from;
  }
  return chain.flatMap((body) => body.split('\n').filter((line) => /^[A-Z]+ /.test(line)));
}

/** The environment the image gives every container (`ENV` of the runtime stage's chain). */
export function imageEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const line of runtimeInstructions().filter((line) => line.startsWith('ENV '))) {
    for (const [, key, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) environment[key!] = value!;
  }
  return environment;
}

const SECONDS = /^(\d+)s$/;

/** The image's HEALTHCHECK: the shell command Docker runs in the container, and its timeout. */
function imageHealthCheck(): { command: string; timeoutMs: number } {
  const line = runtimeInstructions().find((instruction) => instruction.startsWith('HEALTHCHECK '));
  if (!line) throw new Error('The Dockerfile has no HEALTHCHECK');
  const [, flags, command] = /^HEALTHCHECK (.*?)CMD (.*)$/.exec(line)!;
  const timeout = /--timeout=(\S+)/.exec(flags!)?.[1] ?? '30s';
  if (!SECONDS.test(timeout)) throw new Error(`HEALTHCHECK --timeout=${timeout}: not understood`);
  if (command!.startsWith('[')) throw new Error('HEALTHCHECK CMD in exec form: not understood');
  return { command: command!, timeoutMs: Number(SECONDS.exec(timeout)![1]) * 1000 };
}

export interface ComposeService {
  image?: string;
  environment?: Record<string, string | number | boolean>;
  tmpfs?: string[];
  ports?: string[];
  [key: string]: unknown;
}

export function composeServices(
  file = 'docker-compose.several-nodes.yml',
): Record<string, ComposeService> {
  const compose = parse(fs.readFileSync(file, 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  return compose.services;
}

/** `${NAME:?message}` and `${NAME:-default}` as Compose fills them in, given these values. */
export function substitute(value: string, given: Record<string, string>) {
  return value.replace(/\$\{(\w+)(?::[?-]([^}]*))?\}/g, (_, name: string, fallback?: string) =>
    name in given ? given[name]! : (fallback ?? ''),
  );
}

/**
 * A `tmpfs:` entry (`/data` or `/data:uid=1000,gid=1000,mode=0700`) as the folder Docker
 * mounts: the options the entry gives, else what Docker gives a bare tmpfs, root's and 0755
 * (issue 35: the image's user got EACCES on a bare `- /data`).
 */
export function tmpfsFolder(entry: string) {
  const [target, options = ''] = entry.split(/:(.*)/s);
  const folder = { target: target!, uid: 0, gid: 0, mode: 0o755 };
  for (const option of options.split(',').filter(Boolean)) {
    const [name, value] = option.split('=');
    if (name === 'uid') folder.uid = Number(value);
    else if (name === 'gid') folder.gid = Number(value);
    else if (name === 'mode') folder.mode = parseInt(value!, 8);
    else if (name !== 'size') throw new Error(`tmpfs option ${option}: not understood`);
  }
  return folder;
}

/** The image's command (`CMD` in exec form), e.g. `["node", "build/bin/start.js"]`. */
export function imageCommand(): string[] {
  const line = runtimeInstructions().findLast((instruction) => instruction.startsWith('CMD '));
  if (!line) throw new Error('The Dockerfile has no CMD');
  return JSON.parse(line.slice(4)) as string[];
}

/**
 * Runs the image's HEALTHCHECK as Docker does: its command in a shell with the container's
 * environment, as the image's user, stopped at its timeout. True when it says healthy.
 */
export function runHealthCheck(
  environment: Record<string, string>,
  user?: { uid: number; gid: number },
): Promise<boolean> {
  const { command, timeoutMs } = imageHealthCheck();
  return new Promise((resolve) => {
    const check = spawn('/bin/sh', ['-c', command], {
      env: onlyEnv(environment),
      ...user,
      stdio: 'ignore',
      timeout: timeoutMs,
    });
    check.once('exit', (code) => resolve(code === 0));
  });
}

/**
 * The folder a node runs in as its container runs in /app, read by the image's user: this
 * project when that user can read it, else hard links (made in `under`) to what the Dockerfile's
 * runtime stage copies into /app, since a clone under a folder only root may enter (/root) is
 * not readable by uid 1000, which /app always is.
 */
export function imageAppFolder(under: string): string {
  const readable = spawnSync(
    process.execPath,
    ['-e', `require('fs').accessSync(${JSON.stringify(path.resolve('build/bin/start.js'))}, 4)`],
    { uid: IMAGE_USER.uid, gid: IMAGE_USER.gid, stdio: 'ignore' },
  );
  if (readable.status === 0) return process.cwd();
  const app = path.join(under, 'app');
  const copies = runtimeInstructions().filter((line) => line.startsWith('COPY '));
  for (const line of copies) {
    const [, source, target] = /^COPY (?:--from=\S+ )?(\S+) (\S+)$/.exec(line)!;
    const from = source!.replace(/^\/app\//, '');
    const to = path.join(app, target!.endsWith('/') ? path.basename(from) : target!);
    fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o755 });
    const linked = spawnSync('cp', ['-al', from, to], { encoding: 'utf8' });
    if (linked.status !== 0)
      throw new Error(
        `uid ${IMAGE_USER.uid} cannot read this project, nor link it: ${linked.stderr}`,
      );
  }
  return app;
}
