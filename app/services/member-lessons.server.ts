import { courseOutline, getCourseForUser } from '~/models/courses.server';
import { getLesson, markLessonDone, type Lesson } from '~/models/lessons.server';
import { keepCourseGenerating } from './course-generation.server';

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

/**
 * The member opened a lesson of their course: a written one counts as studied (the product's
 * done mark, and so the first lesson is done once the course is opened); one still being written
 * moves to the front of the queue. Undefined when the course has no such lesson.
 */
export async function openLesson(courseId: string, lessonId: number) {
  const lessons = (await courseOutline(courseId)).flatMap((topic) => topic.lessons);
  const lesson = lessons.find((candidate) => candidate.id === lessonId);
  if (!lesson) return undefined;
  if (lesson.state === 'done') await markLessonDone(lesson.id);
  await keepCourseGenerating(courseId, lessons, lesson.id);
  return lesson;
}
