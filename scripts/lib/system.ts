import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

export function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Installs Debian packages when we may (root on Debian/Ubuntu); returns whether it worked. */
export function aptInstall(packages: string[], log: (line: string) => void): boolean {
  if (!isRoot() || !commandExists('apt-get') || !fs.existsSync('/etc/debian_version')) return false;
  log(`Installing ${packages.join(', ')} with apt-get (this happens once)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  if (update.status !== 0) return false;
  const install = spawnSync('apt-get', ['install', '-y', '-qq', ...packages], {
    stdio: 'inherit',
    env,
  });
  return install.status === 0;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
