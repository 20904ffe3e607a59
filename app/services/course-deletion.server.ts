import { fail, ok, type Result } from '~/domain/result';
import { deleteCourseOfUser, type DeletedCourse } from '~/models/courses.server';
import type { User } from '~/models/users.server';
import { flashcardsQueue } from '~/queues/flashcards.server';
import { lessonQueue } from '~/queues/lesson.server';
import { quizQueue } from '~/queues/quiz.server';
import { publishChange } from '~/utils/changes.server';
import { errorMessage } from '~/queues/retry.server';
import { log } from '~/utils/logger.server';

const COURSE_NOT_FOUND_MESSAGE = 'Course not found';

/**
 * Removes the deleted course's waiting jobs, so the worker does not spend a turn on them. Best
 * effort: the rows are already gone, so a job left behind (Redis away, or running now) finds
 * nothing to write and fails for good, and the sweeper has nothing of the course to re-queue.
 */
export async function dropCourseJobs({ id: courseId, lessonIds, quizIds }: DeletedCourse) {
  const removals = await Promise.allSettled([
    lessonQueue.discard(lessonIds.map((lessonId) => ({ lessonId, courseId }))),
    flashcardsQueue.discard(lessonIds.map((lessonId) => ({ lessonId, courseId }))),
    quizQueue.discard(quizIds.map((quizId) => ({ quizId, courseId }))),
  ]);
  for (const removal of removals)
    if (removal.status === 'rejected')
      log.warn('course.delete_jobs_failed', { courseId, error: errorMessage(removal.reason) });
}

/**
 * A member deletes one of their courses (issue 38): the course and everything of it go at once,
 * so its pages, exports, share link and document answer 404 from the next request. Another
 * member's course is as absent as one that never existed.
 */
export async function deleteOwnCourse(user: Pick<User, 'id'>, courseId: string): Promise<Result> {
  const deleted = await deleteCourseOfUser(courseId, user.id);
  if (!deleted) return fail(COURSE_NOT_FOUND_MESSAGE, 404);
  log.info('course.deleted', { courseId, userId: user.id });
  // Pages waiting on the course's status wake up and find it gone.
  publishChange(`course:${courseId}`);
  await dropCourseJobs(deleted);
  return ok();
}
