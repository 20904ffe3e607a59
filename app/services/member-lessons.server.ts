import { getCourseForUser } from '~/models/courses.server';
import { getLesson, type Lesson } from '~/models/lessons.server';

/** The member's lesson, or undefined: another member's lesson is as good as absent (a 404). */
export function lessonOfMember(lessonId: string | undefined, memberId: string): Lesson | undefined {
  const id = Number(lessonId);
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const lesson = getLesson(id);
  return lesson && getCourseForUser(lesson.courseId, memberId) ? lesson : undefined;
}
