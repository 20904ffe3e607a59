import { UnrecoverableError, type Job } from 'bullmq';
import {
  getOutline,
  markOutlineRunning,
  markOutlineWaiting,
  recordOutlineFailure,
  storeOutlineResult,
} from '~/models/outlines.server';
import { describeAiFailure, generateOutline } from '~/services/vendors/ai.server';
import { publishChange } from '~/utils/changes.server';
import { log } from '~/utils/logger.server';
import { errorMessage, reportProgress, waitOutRateLimit } from '~/queues/retry.server';
import { outlineQueue } from '~/queues/outline.server';

/**
 * Asks the AI for the outline and stores it once validated. Any failure
 * (vendor error, malformed answer) is recorded on the row and thrown, so the
 * job retries with backoff; nothing unvalidated is ever stored.
 */
export async function processOutline(job: Job, token?: string) {
  const { outlineId } = outlineQueue.payload.parse(job.data);
  const outline = getOutline(outlineId);
  if (!outline) throw new UnrecoverableError(`Outline ${outlineId} was deleted`);
  if (outline.result) return { outlineId, topics: outline.result.length, skipped: true };
  if (outline.state === 'cancelled') return { outlineId, cancelled: true };

  // Pages waiting on this outline's status are woken by each write.
  const changed = () => publishChange(`outline:${outlineId}`);
  markOutlineRunning(outlineId, job.attemptsMade);
  changed();
  await reportProgress(job, 10);
  try {
    const topics = await generateOutline({
      mainTopic: outline.mainTopic,
      subtopics: outline.subtopics,
      topicCount: outline.topicCount,
      language: outline.language,
    });
    storeOutlineResult(outlineId, topics);
    changed();
    await reportProgress(job, 100);
    return { outlineId, topics: topics.length };
  } catch (error) {
    const failure = describeAiFailure(error);
    await waitOutRateLimit(job, token, error, failure, () => {
      markOutlineWaiting(outlineId, job.attemptsMade);
      changed();
    });
    const failures = job.attemptsMade + 1;
    recordOutlineFailure(outlineId, failures, errorMessage(error), failure.kind);
    changed();
    log.warn('outline.try_failed', {
      jobId: job.id,
      outlineId,
      failures,
      error: errorMessage(error),
    });
    throw error;
  }
}
