import { listUnemailedCompletionIds } from '~/models/completions.server';
import { listUnfinishedLessons } from '~/models/lessons.server';
import { listRunningRegenerations } from '~/models/lesson-regenerations.server';
import { listUnsentMailIds } from '~/models/mail-queue.server';
import { listUnfinishedOutlines } from '~/models/outlines.server';
import { listUnfinishedQuizzes } from '~/models/quizzes.server';
import { listUnfinishedDecks } from '~/models/flashcards.server';
import { certificateEmailQueue } from '~/queues/certificate-email.server';
import { ensureLessonJobs } from '~/queues/lesson.server';
import { ensureRegenerationJobs } from '~/queues/lesson-regeneration.server';
import { mailQueueJobs } from '~/queues/mail.server';
import { outlineQueue } from '~/queues/outline.server';
import { sweptPriority, turnsPerMember } from '~/queues/priorities.server';
import { ensureQuizJobs } from '~/queues/quiz.server';
import { ensureFlashcardJobs } from '~/queues/flashcards.server';
import { log } from '~/utils/logger.server';
import { emailUnsentReceipts } from './billing/receipts.server';

/** How long the process that queued a mail has to send it before the sweep takes over. */
const MAIL_GRACE_MS = 2 * 60_000;

/**
 * The database says what work is owed (outlines not written, lessons without theory or media, lessons a member asked to
 * have re-written, quizzes without questions, lessons' flashcard decks not written, mail,
 * certificate and receipt emails not sent); Redis
 * only runs it. This gives each piece of owed work a live job again, whatever Redis lost: a
 * restart that kept nothing, an outage while a member submitted, a database restored to an
 * earlier time. Job ids are fixed per piece of work, so sweeping twice, or from two workers at
 * once, adds nothing the second time. What the sweep re-creates queues behind work enqueued as
 * it was asked for, members taking turns (ADR 38): a restored backlog never holds up a new course.
 */
export async function sweepLostWork(
  now = new Date(),
): Promise<
  Record<
    | 'outlines'
    | 'lessons'
    | 'regenerations'
    | 'quizzes'
    | 'flashcards'
    | 'mails'
    | 'certificates'
    | 'receipts',
    number
  >
> {
  // Listings, not lists: each is read again after Redis (see `ensure`), so work finished while
  // the sweep looked is not taken for lost.
  const outlines = await outlineQueue.ensure(async () =>
    (await listUnfinishedOutlines()).map(({ outlineId, round }) => ({
      data: { outlineId, round },
      options: { priority: sweptPriority(0) },
    })),
  );
  const lessons = await ensureLessonJobs(async () =>
    turnsPerMember(await listUnfinishedLessons()).map(({ lessonId, courseId, turn }) => ({
      lessonId,
      courseId,
      priority: sweptPriority(turn),
    })),
  );
  const regenerations = await ensureRegenerationJobs(listRunningRegenerations, sweptPriority(0));
  const quizzes = await ensureQuizJobs(async () =>
    turnsPerMember(await listUnfinishedQuizzes()).map(({ quizId, courseId, turn }) => ({
      quizId,
      courseId,
      priority: sweptPriority(turn),
    })),
  );
  const flashcards = await ensureFlashcardJobs(listUnfinishedDecks);
  const mails = await mailQueueJobs.ensure(async () =>
    (await listUnsentMailIds(new Date(now.getTime() - MAIL_GRACE_MS))).map((mailId) => ({
      data: { mailId },
    })),
  );
  // A certificate email's job gives up after about 17 hours (then the member can send it).
  const certificates = await certificateEmailQueue.ensure(async () =>
    (await listUnemailedCompletionIds(new Date(now.getTime() - 24 * 3_600_000))).map(
      (courseId) => ({
        data: { courseId },
      }),
    ),
  );
  const receipts = await emailUnsentReceipts(now);
  const found = {
    outlines,
    lessons,
    regenerations,
    quizzes,
    flashcards,
    mails,
    certificates,
    receipts,
  };
  if (Object.values(found).some((count) => count > 0)) log.warn('sweep.requeued', found);
  return found;
}
