import { listUnfinishedLessons } from '~/models/lessons.server';
import { listUnsentMailIds } from '~/models/mail-queue.server';
import { listUnfinishedOutlineIds } from '~/models/outlines.server';
import { ensureLessonJobs } from '~/queues/lesson.server';
import { mailQueueJobs } from '~/queues/mail.server';
import { outlineQueue } from '~/queues/outline.server';
import { log } from '~/utils/logger.server';

/**
 * SQLite says what work is owed (outlines not written, lessons without theory or media, mail
 * not sent); Redis
 * only runs it. This gives each piece of owed work a live job again, whatever Redis lost: a
 * restart that kept nothing, an outage while a member submitted, a database restored to an
 * earlier time. Job ids are fixed per piece of work, so sweeping twice, or from two workers at
 * once, adds nothing the second time.
 */
/** How long the process that queued a mail has to send it before the sweep takes over. */
const MAIL_GRACE_MS = 2 * 60_000;

export async function sweepLostWork(now = new Date()): Promise<{
  outlines: number;
  lessons: number;
  mails: number;
}> {
  const outlines = await outlineQueue.ensure(
    listUnfinishedOutlineIds().map((outlineId) => ({ data: { outlineId } })),
  );
  const lessons = await ensureLessonJobs(listUnfinishedLessons());
  const mails = await mailQueueJobs.ensure(
    listUnsentMailIds(new Date(now.getTime() - MAIL_GRACE_MS)).map((mailId) => ({
      data: { mailId },
    })),
  );
  if (outlines + lessons + mails > 0) log.warn('sweep.requeued', { outlines, lessons, mails });
  return { outlines, lessons, mails };
}
