import { Job } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { maintenanceQueue } from '~/queues/maintenance.server';
import { database, tables } from '~/utils/database.server';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

const running: WorkerProcess[] = [];
/**
 * A short lock (and so a short stalled-check interval) for every worker here:
 * BullMQ lets one stalled check run per interval, so a long one from an
 * earlier test would delay finding the killed worker's job.
 */
function startWorker() {
  const worker = spawnWorker({ JOB_LOCK_MS: '1500' });
  running.push(worker);
  return worker;
}

afterEach(async () => {
  // Graceful: a killed worker would hold the queue's stalled-check lock for its whole interval.
  await Promise.all(running.splice(0).map((worker) => stopWorker(worker, 'SIGTERM')));
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the worker process', () => {
  it('processes a maintenance job from the real Redis', async () => {
    const worker = startWorker();
    await worker.ready;
    // The hourly purge also runs once at start; let it pass so this job's count is its own.
    await waitFor(async () =>
      worker.output().includes('repeat:purge-expired-hourly') ? true : undefined,
    );
    const now = Date.now();
    const { sessions, users } = tables;
    await database()
      .insert(users)
      .values({ id: 'u1', email: 'u1@test', name: 'U', passwordHash: 'x' });
    await database()
      .insert(sessions)
      .values([
        { id: 'expired', userId: 'u1', expiresAt: new Date(now - 1000) },
        { id: 'live', userId: 'u1', expiresAt: new Date(now + 3_600_000) },
      ]);

    const job = await maintenanceQueue.add({ task: 'purge-expired' });
    // Polled rather than awaited through QueueEvents: a reader that subscribes after the job
    // finished never hears of it, and a loaded machine can finish the job first.
    const result = await waitFor(async () => {
      const state = await job.getState();
      if (state === 'failed') throw new Error('purge-expired failed');
      if (state !== 'completed') return undefined;
      return (await Job.fromId(maintenanceQueue.queue(), job.id!))?.returnvalue as unknown;
    }, 60_000);

    expect(result).toEqual({ sessions: 1, resetTokens: 0 });
    expect(await database().select({ id: sessions.id }).from(sessions)).toEqual([{ id: 'live' }]);
  });

  it('finishes a job after the worker is killed mid-job and restarted', async () => {
    const first = startWorker();
    await first.ready;
    const job = await maintenanceQueue.add(
      { task: 'selftest', holdMs: 4_000 },
      { jobId: `selftest-${Date.now()}` },
    );
    await waitFor(async () => ((await job.getState()) === 'active' ? true : undefined));
    await stopWorker(first, 'SIGKILL');
    expect(await job.getState()).toBe('active');

    const second = startWorker();
    await second.ready;
    const finished = await waitFor(async () => {
      const fresh = await maintenanceQueue.queue().getJob(job.id!);
      return fresh?.finishedOn ? fresh : undefined;
    }, 45_000);
    expect(finished.returnvalue).toMatchObject({ ok: true, pid: second.child.pid });
    expect(await finished.getState()).toBe('completed');
  });

  it('stops cleanly on SIGTERM', async () => {
    const worker = startWorker();
    await worker.ready;
    await stopWorker(worker, 'SIGTERM');
    expect(worker.child.exitCode).toBe(0);
    expect(worker.output()).toContain('"worker.stopped"');
  });
});
