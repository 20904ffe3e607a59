import { WaitingError, type Processor } from 'bullmq';

const STOPPED = Symbol('stopped');

/**
 * A processor whose job, when the worker cancels it because it is stopping, is handed back to
 * its queue as waiting (no try used) rather than left locked until its lock expires. The
 * processor's own work may still be under way for the moment the process has left: every
 * processor stores its result at most once (a lesson already stored is never written again),
 * so the next run finds it done.
 */
export function handedBackOnStop(processor: Processor): Processor {
  return async (job, token, signal) => {
    const run = processor(job, token, signal);
    if (!signal || !token) return run;
    const stopped = new Promise<typeof STOPPED>((resolve) => {
      if (signal.aborted) resolve(STOPPED);
      else signal.addEventListener('abort', () => resolve(STOPPED), { once: true });
    });
    const outcome: unknown = await Promise.race([run, stopped]);
    if (outcome !== STOPPED) return outcome;
    run.catch(() => undefined);
    await job.moveToWait(token);
    throw new WaitingError();
  };
}
