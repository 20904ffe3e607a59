import type { Processor } from 'bullmq';
import { processCertificateEmail } from './certificate-email/processor';
import { CERTIFICATE_EMAIL_QUEUE } from './certificate-email/queue';
import { MAINTENANCE_QUEUE } from './maintenance/queue';
import { processMaintenance } from './maintenance/processor';

export interface QueueRegistration {
  processor: Processor;
  /** Jobs of this queue run at once in one worker process. */
  concurrency: () => number;
}

/** Every queue the worker serves, by name. Add a queue here and it is served. */
export const registry: Record<string, QueueRegistration> = {
  [MAINTENANCE_QUEUE]: { processor: processMaintenance, concurrency: () => 1 },
  [CERTIFICATE_EMAIL_QUEUE]: { processor: processCertificateEmail, concurrency: () => 2 },
};
