import { z } from 'zod';
import { log } from '~/utils/logger.server';
import { defineQueue, mapOwed, type Owed } from './factory.server';
import { freshPriority } from './priorities.server';
import { retryForeverOptions } from './retry.server';

/** One job per lesson: enqueueing a lesson that has a job is a no-op. */
export const lessonQueue = defineQueue({
  name: 'lesson',
  payload: z.object({
    lessonId: z.number().int().positive(),
    courseId: z.string().min(1).max(64),
  }),
  // The course id is random and never reused, so no restored database or shared Redis can
  // hand a new lesson the id of an old job (row ids can come back after a restore).
  jobId: ({ lessonId, courseId }) => `lesson-${courseId}-${lessonId}`,
  defaultJobOptions: retryForeverOptions,
});
export type LessonPayload = z.infer<typeof lessonQueue.payload>;

/**
 * BullMQ runs lower numbers first. The lesson a learner waits for goes first; the others follow
 * in course order, ahead of the learner, after the lessons the member is owed in other courses
 * (`owedElsewhere`, ADR 38).
 */
export const WAITED_FOR_PRIORITY = 1;
export const aheadPriority = (ordinal: number, owedElsewhere = 0) =>
  freshPriority(owedElsewhere + ordinal);

type PrioritisedLesson = LessonPayload & { priority: number };

const withPriority = ({ priority, ...data }: PrioritisedLesson) => ({
  data,
  options: { priority },
});

export function enqueueLessons(items: PrioritisedLesson[]) {
  return lessonQueue.addBulk(items.map(withPriority));
}

/**
 * A learner waits for this lesson: move its job to the front, or (re)create it
 * when Redis lost it. A job waiting out a retry delay keeps its backoff.
 */
export async function prioritiseLesson(payload: LessonPayload) {
  const job = await lessonQueue.findJob(payload);
  const state = job ? await job.getState() : 'unknown';
  if (job && (state === 'prioritized' || state === 'waiting')) {
    if (job.priority === WAITED_FOR_PRIORITY) return state;
    await job.changePriority({ priority: WAITED_FOR_PRIORITY });
    return 'prioritised';
  }
  if (state === 'active' || state === 'delayed') return state;
  await lessonQueue.ensure([{ data: payload, options: { priority: WAITED_FOR_PRIORITY } }]);
  log.warn('lesson.requeued', { ...payload, previousState: state });
  return 'enqueued';
}

/** Every unfinished lesson gets a live job again, at the priority given (the sweeper's half for lessons). */
export function ensureLessonJobs(lessons: Owed<PrioritisedLesson>) {
  return lessonQueue.ensure(mapOwed(lessons, withPriority));
}
