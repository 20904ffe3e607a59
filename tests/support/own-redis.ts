import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../scripts/lib/system';

/**
 * A redis-server of the test's own, keeping nothing on disk, so a test can take it away
 * (an outage) and bring it back empty (a restart that lost every job).
 */
export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start() {
    if (child && child.exitCode === null) return;
    child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const client = new Redis({
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined); // refused until the server listens
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await client.connect();
        await client.ping();
        client.disconnect();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async function stop() {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}
