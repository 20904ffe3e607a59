import { getCourseForUser } from '~/models/courses.server';
import { getLesson, type Lesson } from '~/models/lessons.server';

/** The member's lesson, or undefined: another member's lesson is as good as absent (a 404). */
export async function lessonOfMember(
  lessonId: string | undefined,
  memberId: string,
): Promise<Lesson | undefined> {
  const id = Number(lessonId);
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const lesson = await getLesson(id);
  return lesson && (await getCourseForUser(lesson.courseId, memberId)) ? lesson : undefined;
}
