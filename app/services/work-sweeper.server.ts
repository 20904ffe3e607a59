import { listUnfinishedLessons } from '~/models/lessons.server';
import { listUnfinishedOutlineIds } from '~/models/outlines.server';
import { ensureLessonJobs } from '~/queues/lesson.server';
import { outlineQueue } from '~/queues/outline.server';
import { log } from '~/utils/logger.server';

/**
 * SQLite says what work is owed (outlines not written, lessons without theory or media); Redis
 * only runs it. This gives each piece of owed work a live job again, whatever Redis lost: a
 * restart that kept nothing, an outage while a member submitted, a database restored to an
 * earlier time. Job ids are fixed per piece of work, so sweeping twice, or from two workers at
 * once, adds nothing the second time.
 */
export async function sweepLostWork(): Promise<{ outlines: number; lessons: number }> {
  const outlines = await outlineQueue.ensure(
    listUnfinishedOutlineIds().map((outlineId) => ({ data: { outlineId } })),
  );
  const lessons = await ensureLessonJobs(listUnfinishedLessons());
  if (outlines + lessons > 0) log.warn('sweep.requeued', { outlines, lessons });
  return { outlines, lessons };
}
