import { UnrecoverableError, type Job } from 'bullmq';
import { getLessonJobContext } from '~/models/lessons.server';
import {
  getRunningRegeneration,
  recordRegenerationFailure,
  storeRegeneratedLesson,
} from '~/models/lesson-regenerations.server';
import { lessonPassages } from '~/services/material/lesson-passages.server';
import { rewriteLesson } from '~/services/vendors/ai-lessons.server';
import { publishChange } from '~/utils/changes.server';
import { log } from '~/utils/logger.server';
import { lessonRegenerationQueue } from '~/queues/lesson-regeneration.server';
import { errorMessage, reportProgress } from '~/queues/retry.server';

/**
 * Writes the lesson again as the member asked (ADR 0020). The lesson keeps its text until the new
 * one is stored, in the transaction that keeps the old one for restore. Safe to run twice: only
 * the running request's own job (its token) writes, once; a deleted lesson fails for good.
 */
export async function processLessonRegeneration(job: Job) {
  const { lessonId, courseId, token } = lessonRegenerationQueue.payload.parse(job.data);
  const context = await getLessonJobContext(lessonId);
  if (!context)
    throw new UnrecoverableError(`Lesson ${lessonId} of course ${courseId} was deleted`);
  const running = await getRunningRegeneration(lessonId, token);
  if (!running) return { lessonId, skipped: true };

  const changed = () => publishChange(`course:${courseId}`);
  await reportProgress(job, 10);
  try {
    const text = await rewriteLesson({
      mainTopic: context.course.mainTopic,
      lessonTitle: context.lesson.title,
      language: context.course.language,
      instruction: running.regeneration.instruction,
      // Written from the same passages of the member's material as the first version.
      passages: (
        await lessonPassages(courseId, {
          title: context.lesson.title,
          topicTitle: context.topicTitle,
        })
      ).passages,
    });
    if (await storeRegeneratedLesson(lessonId, token, text.html))
      log.info('lesson.regenerated', { jobId: job.id, lessonId, courseId });
    changed();
    await reportProgress(job, 100);
    return { lessonId };
  } catch (error) {
    const failures = job.attemptsMade + 1;
    await recordRegenerationFailure(lessonId, token, failures, errorMessage(error));
    changed();
    log.warn('lesson.regenerate_failed', {
      jobId: job.id,
      lessonId,
      failures,
      error: errorMessage(error),
    });
    throw error;
  }
}
