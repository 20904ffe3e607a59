import type { Job, Processor } from 'bullmq';
import { jobDuration } from '~/utils/metrics.server';
import { isWellFormedRequestId, runWithRequestId } from '~/utils/request-context.server';
import { inTraceOf, traced } from '~/utils/tracing.server';

/** The id of the request that enqueued a job, from its data (app/queues/factory.server.ts). */
export function requestIdOf(job: Pick<Job, 'data'> | undefined): string | undefined {
  const requestId = (job?.data as { requestId?: unknown } | null | undefined)?.requestId;
  return isWellFormedRequestId(requestId) ? requestId : undefined;
}

/**
 * A processor run for the request that enqueued its job (ADR 0056): its log lines, and the jobs
 * it enqueues in turn (an outline's lessons), carry that request's id.
 */
export function inRequestContext(processor: Processor): Processor {
  return (job, token, signal) => {
    const requestId = requestIdOf(job);
    return requestId
      ? runWithRequestId(requestId, () => processor(job, token, signal))
      : processor(job, token, signal);
  };
}

/** A processor whose runs are timed, by queue and outcome, for the metrics (ADR 0056). */
export function timed(queue: string, processor: Processor): Processor {
  return async (job, token, signal) => {
    const stop = jobDuration.startTimer({ queue });
    try {
      const result: unknown = await processor(job, token, signal);
      stop({ outcome: 'completed' });
      return result;
    } catch (error) {
      stop({ outcome: 'failed' });
      throw error;
    }
  };
}

/**
 * A processor whose runs are spans of the trace that enqueued their job (ADR 0064: its data
 * carries the W3C `traceparent`), when traces are on.
 */
export function inTrace(queue: string, processor: Processor): Processor {
  return (job, token, signal) =>
    inTraceOf(job.data, () =>
      traced(
        () => ({
          name: `process ${queue}`,
          kind: 'consumer',
          attributes: {
            'messaging.system': 'bullmq',
            'messaging.operation.type': 'process',
            'messaging.destination.name': queue,
            'messaging.message.id': job.id,
            'coursegen.job.attempt': job.attemptsMade + 1,
          },
        }),
        () => processor(job, token, signal),
      ),
    );
}
