import type { Processor, WorkerOptions } from 'bullmq';
import { MAX_LESSONS_PER_COURSE } from '~/domain/plans';
import { env } from '~/utils/env.server';
import { processLesson } from './lesson/processor';
import { LESSON_QUEUE } from './lesson/queue';
import { processCertificateEmail } from './certificate-email/processor';
import { CERTIFICATE_EMAIL_QUEUE } from './certificate-email/queue';
import { MAINTENANCE_QUEUE } from './maintenance/queue';
import { processMaintenance } from './maintenance/processor';
import { processOutline } from './outline/processor';
import { OUTLINE_QUEUE } from './outline/queue';

export interface QueueRegistration {
  processor: Processor;
  /** Jobs of this queue run at once in one worker process. */
  concurrency: () => number;
  /** Per-queue worker settings on top of the shared ones. */
  workerOptions?: Partial<WorkerOptions>;
}

/**
 * Jobs that retry forever must also survive any number of worker crashes:
 * BullMQ fails a job that stalled more than `maxStalledCount` times.
 */
const survivesCrashes: Partial<WorkerOptions> = { maxStalledCount: 1_000_000 };

/** Every queue the worker serves, by name. Add a queue here and it is served. */
export const registry: Record<string, QueueRegistration> = {
  [MAINTENANCE_QUEUE]: { processor: processMaintenance, concurrency: () => 1 },
  [CERTIFICATE_EMAIL_QUEUE]: { processor: processCertificateEmail, concurrency: () => 2 },
  [OUTLINE_QUEUE]: {
    processor: processOutline,
    concurrency: () => env().OUTLINE_CONCURRENCY,
    workerOptions: survivesCrashes,
  },
  [LESSON_QUEUE]: {
    processor: processLesson,
    concurrency: () => env().LESSON_CONCURRENCY ?? MAX_LESSONS_PER_COURSE,
    workerOptions: survivesCrashes,
  },
};
