import {
  aheadPriority,
  enqueueLessons,
  prioritiseLesson,
  WAITED_FOR_PRIORITY,
} from '../../jobs/lesson/queue';
import { enqueueOutline } from '../../jobs/outline/queue';
import type { CourseType } from '../../db/schema';
import {
  createCourseWithLessons,
  deleteCourse,
  type CreatedLesson,
  type NewTopic,
} from '~/models/courses.server';
import {
  claimOutline,
  createOutline,
  getOutlineForUser,
  type Outline,
} from '~/models/outlines.server';
import type { User } from '~/models/users.server';
import { getPlan, isPaidPlan } from '~/models/plans';
import { AI_ALLOWANCE_MESSAGE, aiAllowance } from '~/utils/ai-rate-limit.server';
import { PAID_ONLY_MESSAGE } from '~/utils/course-rules';
import { log } from '~/utils/logger.server';

/**
 * What the web process does for course generation: check the member's plan
 * and AI allowance, write rows, enqueue jobs. The worker does the rest
 * (jobs/outline, jobs/lesson).
 */

export function isPaid(user: Pick<User, 'plan'>): boolean {
  return isPaidPlan(user.plan);
}

/** The spec's free-plan limits (app/models/plans.ts): 5 topics and theory-and-image only. */
export function planLimitMessage(
  user: Pick<User, 'plan'>,
  request: { topicCount: number; type: CourseType },
): string | null {
  const { limits } = getPlan(user.plan);
  return limits.topicCounts.includes(request.topicCount) &&
    (limits.courseTypes as readonly CourseType[]).includes(request.type)
    ? null
    : PAID_ONLY_MESSAGE;
}

/** For content an API client brings: no more topics than the plan's largest choice. */
export function contentLimitMessage(
  user: Pick<User, 'plan'>,
  content: { topicCount: number; type: CourseType },
): string | null {
  const { limits } = getPlan(user.plan);
  return content.topicCount <= Math.max(...limits.topicCounts) &&
    (limits.courseTypes as readonly CourseType[]).includes(content.type)
    ? null
    : PAID_ONLY_MESSAGE;
}

export type Started<T> =
  { ok: true; value: T } | { ok: false; message: string; status: 403 | 404 | 409 | 429 };

export async function startOutline(
  user: User,
  input: { mainTopic: string; subtopics: string[]; topicCount: number; type: CourseType },
): Promise<Started<Outline>> {
  const refused = planLimitMessage(user, input);
  if (refused) return { ok: false, message: refused, status: 403 };
  const outline = createOutline({
    userId: user.id,
    mainTopic: input.mainTopic,
    subtopics: input.subtopics,
    topicCount: input.topicCount,
    courseType: input.type,
  });
  await ensureOutlineJob(outline);
  return { ok: true, value: outline };
}

/** Enqueues the outline's job unless it is done; a no-op when the job exists. */
export async function ensureOutlineJob(outline: Outline) {
  if (outline.result) return;
  try {
    await enqueueOutline({ outlineId: outline.id });
  } catch (error) {
    // The row stays queued; the next visit of /topics enqueues it again.
    log.error('outline.enqueue_failed', { outlineId: outline.id, error });
  }
}

async function enqueueCourseLessons(courseId: string, created: CreatedLesson[]) {
  const pending = created.filter((lesson) => lesson.pending);
  const firstPending = pending[0];
  try {
    await enqueueLessons(
      pending.map((lesson) => ({
        lessonId: lesson.id,
        courseId,
        priority: lesson === firstPending ? WAITED_FOR_PRIORITY : aheadPriority(lesson.ordinal),
      })),
    );
  } catch (error) {
    // The rows stay queued; opening the course enqueues them again.
    log.error('lesson.enqueue_failed', { courseId, error });
  }
}

/**
 * Generate Course: the course and one row per lesson, then the first lesson's
 * job at the front of the queue and the others behind it. Each lesson is a
 * vendor call, so the course costs its lesson count of the member's AI
 * allowance; a course that does not fit creates nothing. Idempotent: a
 * second submit of the same outline opens the course the first one made.
 */
export async function startCourse(user: User, outlineId: string): Promise<Started<string>> {
  const outline = getOutlineForUser(outlineId, user.id);
  if (!outline) return { ok: false, message: 'Not Found', status: 404 };
  if (outline.courseId) return { ok: true, value: outline.courseId };
  if (!outline.result) return { ok: false, message: 'The outline is not ready yet', status: 409 };
  const refused = planLimitMessage(user, {
    topicCount: outline.topicCount,
    type: outline.courseType,
  });
  if (refused) return { ok: false, message: refused, status: 403 };
  const lessonCount = outline.result.reduce((sum, topic) => sum + topic.subtopics.length, 0);
  if (!(await aiAllowance(user, lessonCount)).allowed)
    return { ok: false, message: AI_ALLOWANCE_MESSAGE, status: 429 };

  const topics: NewTopic[] = outline.result.map((topic) => ({
    title: topic.title,
    lessons: topic.subtopics.map((subtopic) => ({ title: subtopic.title })),
  }));
  const { course, lessons } = createCourseWithLessons({
    userId: user.id,
    mainTopic: outline.mainTopic,
    type: outline.courseType,
    topics,
  });
  if (!claimOutline(outline.id, course.id)) {
    deleteCourse(course.id);
    return { ok: true, value: getOutlineForUser(outlineId, user.id)!.courseId! };
  }
  await enqueueCourseLessons(course.id, lessons);
  return { ok: true, value: course.id };
}

/** A course from an API client's content: lessons without theory are generated. */
export async function createCourseFromContent(
  user: User,
  input: { mainTopic: string; type: CourseType; topics: NewTopic[] },
): Promise<string> {
  const { course, lessons } = createCourseWithLessons({ userId: user.id, ...input });
  await enqueueCourseLessons(course.id, lessons);
  return course.id;
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
