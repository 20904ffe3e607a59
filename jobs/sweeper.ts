import { scheduleMaintenance } from '~/queues/maintenance.server';
import { sweepLostWork } from '~/services/work-sweeper.server';
import { log } from '~/utils/logger.server';
import { noteRedisFailure, onRedisBack } from '~/utils/redis.server';

/**
 * Runs the sweep at start and then every `intervalMs` in this process. It is a timer rather than
 * a repeatable BullMQ job on purpose: a repeatable job lives in Redis and is lost with it, which
 * is the very case the sweep is for. Each round also re-creates the maintenance schedules.
 * A round also runs the moment Redis comes back from an outage, so work submitted meanwhile
 * starts then rather than at the next interval (ADR 38).
 */
export function startSweeper(intervalMs: number, reconcileEveryMinutes: number) {
  let running: Promise<void> = Promise.resolve();
  const round = () => {
    running = running.then(async () => {
      try {
        await scheduleMaintenance(reconcileEveryMinutes);
        await sweepLostWork();
      } catch (error) {
        // Redis is away (logged once for the whole outage): the next round tries again.
        if (!noteRedisFailure('sweep', error))
          log.warn('sweep.failed', {
            error: error instanceof Error ? error.message : String(error),
          });
      }
    });
  };
  round();
  const firstRound = running;
  const timer = setInterval(round, intervalMs);
  timer.unref();
  const stopListening = onRedisBack(round);
  return {
    firstRound,
    /** Stops the timer and waits for a round in progress. */
    async stop() {
      clearInterval(timer);
      stopListening();
      await running;
    },
  };
}
