import type { Processor, WorkerOptions } from 'bullmq';
import { billingEventQueue } from '~/queues/billing-event.server';
import { certificateEmailQueue } from '~/queues/certificate-email.server';
import { lessonQueue } from '~/queues/lesson.server';
import { lessonRegenerationQueue } from '~/queues/lesson-regeneration.server';
import { mailQueueJobs } from '~/queues/mail.server';
import { maintenanceQueue } from '~/queues/maintenance.server';
import { outlineQueue } from '~/queues/outline.server';
import { quizQueue } from '~/queues/quiz.server';
import { flashcardsQueue } from '~/queues/flashcards.server';
import { env } from '~/utils/env.server';
import { processBillingEvent } from './billing-event/processor';
import { processCertificateEmail } from './certificate-email/processor';
import { processLesson } from './lesson/processor';
import { processLessonRegeneration } from './lesson-regeneration/processor';
import { processMail } from './mail/processor';
import { processMaintenance } from './maintenance/processor';
import { processOutline } from './outline/processor';
import { processQuiz } from './quiz/processor';
import { processFlashcards } from './flashcards/processor';

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
  [maintenanceQueue.name]: { processor: processMaintenance, concurrency: () => 1 },
  [certificateEmailQueue.name]: { processor: processCertificateEmail, concurrency: () => 2 },
  [billingEventQueue.name]: { processor: processBillingEvent, concurrency: () => 4 },
  [mailQueueJobs.name]: { processor: processMail, concurrency: () => 4 },
  [outlineQueue.name]: {
    processor: processOutline,
    concurrency: () => env().OUTLINE_CONCURRENCY,
    workerOptions: survivesCrashes,
  },
  [lessonQueue.name]: {
    processor: processLesson,
    concurrency: () => env().LESSON_CONCURRENCY,
    workerOptions: survivesCrashes,
  },
  [lessonRegenerationQueue.name]: {
    processor: processLessonRegeneration,
    concurrency: () => 2,
    workerOptions: survivesCrashes,
  },
  [quizQueue.name]: {
    processor: processQuiz,
    concurrency: () => 2,
    workerOptions: survivesCrashes,
  },
  // A deck is one short AI call per written lesson, waiting on the model like a lesson (ADR 24):
  // ten at once keep up with a course's lessons without taking the model's time from them.
  [flashcardsQueue.name]: {
    processor: processFlashcards,
    concurrency: () => 10,
    workerOptions: survivesCrashes,
  },
};
