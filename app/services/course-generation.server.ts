import {
  aheadPriority,
  enqueueLessons,
  prioritiseLesson,
  WAITED_FOR_PRIORITY,
} from '~/queues/lesson.server';
import { outlineQueue } from '~/queues/outline.server';
import type { CourseType } from '../../db/schema';
import {
  createCourseWithLessons,
  deleteCourse,
  type CreatedLesson,
  type NewTopic,
} from '~/models/courses.server';
import { countOwedLessonsInOtherCourses } from '~/models/lessons.server';
import {
  cancelOutline,
  claimOutline,
  createOutline,
  getOutlineForUser,
  retitleOutline,
  type Outline,
} from '~/models/outlines.server';
import { OUTLINE_REWRITING_MESSAGE } from '~/domain/outline-edit';
import type { User } from '~/models/users.server';
import { AI_ALLOWANCE_MESSAGE, planRefusal } from '~/domain/plans';
import { planOf } from '~/services/plans.server';
import { fail, ok, type Result } from '~/domain/result';
import { aiAllowance } from '~/services/ai-allowance.server';
import { keepQuizzesGenerating } from '~/services/quizzes.server';
import { readMaterial, type MaterialUpload } from '~/services/material/intake.server';
import { keepCourseDecksWriting } from '~/services/flashcards.server';
import { log } from '~/utils/logger.server';
import { tooManyRequestsFailure } from '~/utils/rate-limit.server';
import { jobServiceUp, noteRedisFailure } from '~/utils/redis.server';

/**
 * What the web process does for course generation: check the member's plan
 * and AI allowance, write rows, enqueue jobs. The worker does the rest
 * (jobs/outline, jobs/lesson).
 */

export async function startOutline(
  user: User,
  input: {
    mainTopic: string;
    /** The sub-topics the member typed on /create (their word; the outline's topics). */
    subtopics: string[];
    topicCount: number;
    type: CourseType;
    language?: string;
    /** The member's own material (ADR 0032): a document or pasted text, read here. */
    material?: MaterialUpload;
  },
): Promise<Result<Outline>> {
  const refused = planRefusal(await planOf(user.plan), input);
  if (refused) return fail(refused, 403);
  // Read before the allowance is counted: a refused document costs nothing and creates nothing.
  const material = input.material ? await readMaterial(user, input.material) : ok(undefined);
  if (!material.ok) return material;
  if (!(await aiAllowance(user)).allowed) return fail(AI_ALLOWANCE_MESSAGE, 429);
  const outline = await createOutline({
    userId: user.id,
    mainTopic: input.mainTopic,
    subtopics: input.subtopics,
    topicCount: input.topicCount,
    courseType: input.type,
    language: input.language,
    material: material.value,
  });
  await ensureOutlineJob(outline);
  return ok(outline);
}

/** Enqueues the outline's job (or its rewrite's) unless it is owed nothing; a no-op when the job exists. */
export async function ensureOutlineJob(outline: Outline) {
  const rewriting = outline.rewriteInstruction !== null;
  if ((outline.result && !rewriting) || outline.state === 'cancelled') return;
  try {
    await outlineQueue.add({ outlineId: outline.id, round: rewriting ? outline.rewriteRound : 0 });
  } catch (error) {
    // The row stays queued; the worker's sweep enqueues it when Redis is back.
    // An outage is logged once by the outage watch, not once per member.
    if (!noteRedisFailure('outline.enqueue', error))
      log.warn('outline.enqueue_failed', { outlineId: outline.id, error });
  }
}

/** Drops the outline's pending try (waiting out a backoff); a running one finds the row changed. */
export async function dropOutlineJob(outlineId: string, round = 0) {
  try {
    await (await outlineQueue.findJob({ outlineId, round }))?.remove();
  } catch (error) {
    log.warn('outline.job_not_removed', { outlineId, error });
  }
}

/** The member gives up on an outline the AI could not write: it costs no more calls. */
export async function cancelOutlineOf(user: User, outlineId: string): Promise<Result<Outline>> {
  const outline = await getOutlineForUser(outlineId, user.id);
  if (!outline) return fail('Not Found', 404);
  if (!(await cancelOutline(outline.id))) return fail('The outline is already written', 409);
  await dropOutlineJob(outline.id);
  return ok((await getOutlineForUser(outlineId, user.id))!);
}

/**
 * The member changes the title of an outline the AI could not write, and it starts again at
 * once (no backoff). The outline was paid for when it was asked for, so this costs no allowance.
 */
export async function retitleOutlineOf(
  user: User,
  outlineId: string,
  mainTopic: string,
): Promise<Result<Outline>> {
  const outline = await getOutlineForUser(outlineId, user.id);
  if (!outline) return fail('Not Found', 404);
  if (!(await retitleOutline(outline.id, mainTopic)))
    return fail('The outline is already written', 409);
  await dropOutlineJob(outline.id);
  const retitled = (await getOutlineForUser(outlineId, user.id))!;
  await ensureOutlineJob(retitled);
  return ok(retitled);
}

/** A generation status as the page shows it: queued work says when it waits for Redis. */
export function withJobService<T extends { version: string }>(
  status: T,
): T & { jobServiceDown: boolean } {
  const down = !jobServiceUp();
  return {
    ...status,
    jobServiceDown: down,
    version: down ? `${status.version}:down` : status.version,
  };
}

async function enqueueCourseLessons(courseId: string, created: CreatedLesson[]) {
  const pending = created.filter((lesson) => lesson.pending);
  const firstPending = pending[0];
  // Behind the member's own lessons still owed elsewhere, not behind other members' (ADR 38).
  const owedElsewhere = await countOwedLessonsInOtherCourses(courseId);
  try {
    await enqueueLessons(
      pending.map((lesson) => ({
        lessonId: lesson.id,
        courseId,
        priority:
          lesson === firstPending
            ? WAITED_FOR_PRIORITY
            : aheadPriority(lesson.ordinal, owedElsewhere),
      })),
    );
    // With the request's id (ADR 0056), the line an operator starts from to find the lessons'.
    log.info('lesson.enqueued', { courseId, lessons: pending.length });
  } catch (error) {
    // The rows stay queued; the worker's sweep enqueues them when Redis is back.
    if (!noteRedisFailure('lesson.enqueue', error))
      log.warn('lesson.enqueue_failed', { courseId, error });
  }
}

/**
 * Generate Course: the course and one row per lesson, then the first lesson's
 * job at the front of the queue and the others behind it. Each lesson is a
 * vendor call, so the course costs its lesson count of the member's AI
 * allowance; a course that does not fit creates nothing. Idempotent: a
 * second submit of the same outline opens the course the first one made.
 */
export async function startCourse(user: User, outlineId: string): Promise<Result<string>> {
  const outline = await getOutlineForUser(outlineId, user.id);
  if (!outline) return fail('Not Found', 404);
  if (outline.courseId) return ok(outline.courseId);
  if (!outline.result) return fail('The outline is not ready yet', 409);
  if (outline.rewriteInstruction !== null) return fail(OUTLINE_REWRITING_MESSAGE, 409);
  const lessonCount = outline.result.reduce((sum, topic) => sum + topic.lessons.length, 0);
  // The outline as it stands: the member may have added or removed topics (ADR 0032).
  const refused = planRefusal(await planOf(user.plan), {
    topicCount: outline.result.length,
    type: outline.courseType,
    aiLessons: lessonCount,
  });
  if (refused) return fail(refused, 403);
  if (!(await aiAllowance(user, lessonCount)).allowed) return fail(AI_ALLOWANCE_MESSAGE, 429);

  const topics: NewTopic[] = outline.result.map((topic) => ({
    title: topic.title,
    lessons: topic.lessons.map((lesson) => ({ title: lesson.title })),
  }));
  const { course, lessons } = await createCourseWithLessons({
    userId: user.id,
    mainTopic: outline.mainTopic,
    type: outline.courseType,
    language: outline.language,
    topics,
  });
  if (!(await claimOutline(outline.id, course.id))) {
    await deleteCourse(course.id);
    const now = (await getOutlineForUser(outlineId, user.id))!;
    // Claimed by a second submit meanwhile, or a rewrite began just before.
    return now.courseId ? ok(now.courseId) : fail(OUTLINE_REWRITING_MESSAGE, 409);
  }
  await enqueueCourseLessons(course.id, lessons);
  await keepQuizzesGenerating(course.id);
  return ok(course.id);
}

/**
 * A course from an API client's content, under the same plan rule as /create.
 * Lessons without theory are generated by jobs, each an AI call and a media
 * search, so each costs one unit of the member's AI allowance.
 */
export async function createCourseFromContent(
  user: User,
  input: { mainTopic: string; type: CourseType; language?: string; topics: NewTopic[] },
): Promise<Result<string>> {
  const toGenerate = input.topics
    .flatMap((topic) => topic.lessons)
    .filter((lesson) => !lesson.theory).length;
  const refused = planRefusal(await planOf(user.plan), {
    topicCount: input.topics.length,
    type: input.type,
    aiLessons: toGenerate,
  });
  if (refused) return fail(refused, 403);
  if (toGenerate > 0) {
    const allowance = await aiAllowance(user, toGenerate);
    if (!allowance.allowed) return tooManyRequestsFailure(allowance);
  }
  const { course, lessons } = await createCourseWithLessons({ userId: user.id, ...input });
  await enqueueCourseLessons(course.id, lessons);
  await keepQuizzesGenerating(course.id);
  // Lessons the client sent with their text owe their flashcards at once.
  await keepCourseDecksWriting(course.id);
  return ok(course.id);
}

/**
 * On opening a course: the lesson the learner waits for goes to the front;
 * any unfinished lesson whose job Redis lost gets one again. Never throws.
 */
export async function keepCourseGenerating(
  courseId: string,
  lessons: { id: number; ordinal: number; state: string; mediaState: string }[],
  waitedFor?: number,
) {
  const unfinished = lessons.filter(
    (lesson) => lesson.state !== 'done' || lesson.mediaState !== 'done',
  );
  if (unfinished.length === 0) return;
  try {
    await enqueueLessons(
      unfinished.map((lesson) => ({
        lessonId: lesson.id,
        courseId,
        priority: aheadPriority(lesson.ordinal),
      })),
    );
    if (waitedFor !== undefined && unfinished.some((lesson) => lesson.id === waitedFor))
      await prioritiseLesson({ lessonId: waitedFor, courseId });
  } catch (error) {
    log.warn('lesson.prioritise_failed', { courseId, lessonId: waitedFor, error });
  }
}
