import { UnrecoverableError, type Job } from 'bullmq';
import {
  getOutline,
  markOutlineRunning,
  markOutlineWaiting,
  materialOfOutline,
  recordOutlineFailure,
  storeOutlineResult,
  storeRewrittenOutline,
} from '~/models/outlines.server';
import { getUserById } from '~/models/users.server';
import { topicLimitOf } from '~/domain/outline-edit';
import { planOf } from '~/services/plans.server';
import { coverageLabel } from '~/domain/material-coverage';
import { planTopics, topicLessons } from '~/services/material/coverage.server';
import { materialDigest } from '~/services/material/relevance.server';
import { describeAiFailure } from '~/services/vendors/ai.server';
import { generateOutline } from '~/services/vendors/ai-outline.server';
import type { OutlineRequest } from '~/services/vendors/ai-outline-prompt.server';
import { publishChange } from '~/utils/changes.server';
import { log } from '~/utils/logger.server';
import { errorMessage, reportProgress, waitOutRateLimit } from '~/queues/retry.server';
import { outlineQueue } from '~/queues/outline.server';

/**
 * Asks the AI for the outline and stores it once validated. Any failure
 * (vendor error, malformed answer) is recorded on the row and thrown, so the
 * job retries with backoff; nothing unvalidated is ever stored. The same job writes an outline
 * again when the member asks for a rewrite (ADR 0032): only the rewrite of its own round, and
 * only while it is still asked for; the written outline stays until then.
 */
export async function processOutline(job: Job, token?: string) {
  const { outlineId, round = 0 } = outlineQueue.payload.parse(job.data);
  const outline = await getOutline(outlineId);
  if (!outline) throw new UnrecoverableError(`Outline ${outlineId} was deleted`);
  if (outline.state === 'cancelled') return { outlineId, cancelled: true };
  const rewriting = outline.rewriteInstruction !== null;
  if (round > 0 && (!rewriting || outline.rewriteRound !== round))
    return { outlineId, round, superseded: true };
  if (round === 0 && outline.result)
    return { outlineId, topics: outline.result.length, skipped: true };

  // Pages waiting on this outline's status are woken by each write.
  const changed = () => publishChange(`outline:${outlineId}`);
  await markOutlineRunning(outlineId, job.attemptsMade);
  changed();
  await reportProgress(job, 10);
  try {
    const topics = await generateOutline(await outlineRequest(outline, round));
    if (round > 0) await storeRewrittenOutline(outlineId, round, topics);
    else await storeOutlineResult(outlineId, topics);
    changed();
    await reportProgress(job, 100);
    return { outlineId, round, topics: topics.length };
  } catch (error) {
    const failure = describeAiFailure(error);
    await waitOutRateLimit(job, token, error, failure, async () => {
      await markOutlineWaiting(outlineId, job.attemptsMade);
      changed();
    });
    const failures = job.attemptsMade + 1;
    await recordOutlineFailure(outlineId, failures, errorMessage(error), failure.kind);
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

/** What the AI is asked: the member's request, their material's digest, and a rewrite's instruction. */
async function outlineRequest(
  outline: NonNullable<Awaited<ReturnType<typeof getOutline>>>,
  round: number,
): Promise<OutlineRequest> {
  const material = await materialOfOutline(outline.id);
  const digest = material ? materialDigest(material.sections) : undefined;
  const rewrite =
    round > 0 && outline.result && outline.rewriteInstruction
      ? { instruction: outline.rewriteInstruction, current: outline.result }
      : undefined;
  // The owner's plan as set now: an operator's change reaches outlines still to be written.
  const owner = await getUserById(outline.userId);
  const limit = owner ? topicLimitOf(await planOf(owner.plan)) : undefined;
  const planLimit = limit?.max ?? outline.topicCount;
  const lessonsPerTopic = limit?.lessonsPerTopic;
  return {
    mainTopic: outline.mainTopic,
    subtopics: outline.subtopics,
    // A rewrite may have as many topics as the member's plan allows.
    topicCount: rewrite ? planLimit : outline.topicCount,
    // The member's sub-topics join after the material's topics within the plan (ADR 0047).
    topicLimit: digest ? planLimit : undefined,
    lessonsPerTopic,
    language: outline.language,
    material:
      material && digest
        ? {
            name: material.name,
            ...digest,
            // The whole document, in at most the topics asked for (ADR 0058).
            topics: planTopics(material.sections, outline.topicCount).map((topic) => ({
              headings: topic.headings,
              lessons: topicLessons(topic, lessonsPerTopic),
              covers: coverageLabel(topic),
            })),
          }
        : undefined,
    rewrite,
  };
}
