import { UnrecoverableError, type Job } from 'bullmq';
import {
  getDeckJobContext,
  markDeckRunning,
  markDeckWaiting,
  recordDeckFailure,
  storeDeck,
} from '~/models/flashcards.server';
import { describeAiFailure } from '~/services/vendors/ai.server';
import { generateFlashcards } from '~/services/vendors/flashcard-deck.server';
import { flashcardsQueue } from '~/queues/flashcards.server';
import { errorMessage, reportProgress, waitOutRateLimit } from '~/queues/retry.server';
import { log } from '~/utils/logger.server';
import { recordWritten } from '~/utils/metrics.server';

/**
 * Writes one lesson's flashcards (ADR 0033) and only that deck. Safe to run twice: a deck
 * already stored is never written again. An unusable answer from the model fails the try, so
 * the job retries with the shared backoff until a valid deck arrives. Part of the course: it
 * uses none of the member's AI allowance.
 */
export async function processFlashcards(job: Job, token?: string) {
  const { lessonId, courseId } = flashcardsQueue.payload.parse(job.data);
  const context = await getDeckJobContext(lessonId);
  if (!context)
    throw new UnrecoverableError(`Lesson ${lessonId} of course ${courseId} was deleted`);
  const { deck, lesson, course } = context;
  if (deck.state === 'done') return { lessonId, skipped: true };
  // Deck rows are written with the lesson's text, which is never taken away again.
  if (!lesson.theory) throw new UnrecoverableError(`Lesson ${lessonId} has no text to ask about`);

  await markDeckRunning(lessonId, job.attemptsMade);
  try {
    const cards = await generateFlashcards({
      mainTopic: course.mainTopic,
      lessonTitle: lesson.title,
      lessonHtml: lesson.theory,
      language: course.language,
    });
    if (await storeDeck({ lessonId, courseId, userId: course.userId }, cards, lesson.theory)) {
      log.info('flashcards.stored', { jobId: job.id, lessonId, courseId, cards: cards.length });
      recordWritten('flashcard', cards.length);
    }
    await reportProgress(job, 100);
    return { lessonId };
  } catch (error) {
    await waitOutRateLimit(job, token, error, describeAiFailure(error), () =>
      markDeckWaiting(lessonId, job.attemptsMade),
    );
    const failures = job.attemptsMade + 1;
    await recordDeckFailure(lessonId, failures, errorMessage(error));
    log.warn('flashcards.try_failed', {
      jobId: job.id,
      lessonId,
      failures,
      error: errorMessage(error),
    });
    throw error;
  }
}
