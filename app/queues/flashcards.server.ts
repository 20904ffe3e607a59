import { z } from 'zod';
import { defineQueue, mapOwed, type Owed } from './factory.server';
import { retryForeverOptions } from './retry.server';

/** One job per lesson's deck (ADR 0033): enqueueing a deck that has a job is a no-op. */
export const flashcardsQueue = defineQueue({
  name: 'flashcards',
  payload: z.object({
    lessonId: z.number().int().positive(),
    courseId: z.string().min(1).max(64),
  }),
  // As for lessons and quizzes: the course id is random and never reused, so a restored
  // database's row ids never meet an old job's id.
  jobId: ({ lessonId, courseId }) => `flashcards-${courseId}-${lessonId}`,
  defaultJobOptions: retryForeverOptions,
});
export type FlashcardsPayload = z.infer<typeof flashcardsQueue.payload>;

/** Behind lessons and quizzes: a deck is reviewed only after its lesson is read. */
const FLASHCARDS_PRIORITY = 200;

/** Every owed deck gets a live job (when a lesson is stored, and the sweeper's half for decks). */
export function ensureFlashcardJobs(decks: Owed<FlashcardsPayload>) {
  return flashcardsQueue.ensure(
    mapOwed(decks, (data) => ({ data, options: { priority: FLASHCARDS_PRIORITY } })),
  );
}
