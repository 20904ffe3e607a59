import { createHash } from 'node:crypto';
import type { CourseType } from '../../db/schema';
import {
  courseIdOfShare,
  deleteShare,
  insertShare,
  shareTokenOf,
} from '~/models/course-shares.server';
import {
  courseOutline,
  createCourseWithLessons,
  getCourse,
  getCourseForUser,
  type Course,
} from '~/models/courses.server';
import { listLessonsOfCourse, parseCredit, type LessonCredit } from '~/models/lessons.server';
import { listQuizzesOfCourse } from '~/models/quizzes.server';
import type { User } from '~/models/users.server';
import { planRefusal } from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { keepQuizzesGenerating } from '~/services/quizzes.server';
import { keepCourseDecksWriting } from '~/services/flashcards.server';
import { writtenDecksOfCourse } from '~/models/flashcards.server';
import { env } from '~/utils/env.server';
import { newSecretToken } from '~/utils/ids.server';

/**
 * Public links to finished courses (ADR 0021). A link shows what the course teaches and nothing
 * about whose it is: no email, no ids, no progress, no notes, no quiz questions or answers.
 */

const NOT_FINISHED_MESSAGE =
  'A course can be shared once every lesson is written. Please try again when it is finished.';

/** What the owner's course view shows of sharing. */
export interface ShareState {
  /** The live link, or null when the course is not shared. */
  url: string | null;
  /** Every lesson is written, so the course can be shared. */
  shareable: boolean;
}

/** The link as the owner copies it and previews show it: absolute, on the public address. */
export const shareUrl = (token: string) => `${env().APP_URL}/share/${token}`;

export async function shareStateOf(
  courseId: string,
  allLessonsWritten: boolean,
): Promise<ShareState> {
  const token = await shareTokenOf(courseId);
  return { url: token ? shareUrl(token) : null, shareable: allLessonsWritten };
}

const everyLessonWritten = async (courseId: string) =>
  (await courseOutline(courseId)).every((topic) =>
    topic.lessons.every((lesson) => lesson.state === 'done'),
  );

/** Makes the member's finished course public; sharing a shared course keeps its link. */
export async function shareCourse(user: User, courseId: string): Promise<Result<{ url: string }>> {
  const course = await getCourseForUser(courseId, user.id);
  if (!course) return fail('Not Found', 404);
  if (!(await everyLessonWritten(course.id))) return fail(NOT_FINISHED_MESSAGE, 409);
  return ok({ url: shareUrl(await insertShare(course.id, newSecretToken())) });
}

/** Stops the link at once; sharing again later makes a new one. */
export async function revokeCourseShare(user: User, courseId: string): Promise<Result> {
  const course = await getCourseForUser(courseId, user.id);
  if (!course) return fail('Not Found', 404);
  await deleteShare(course.id);
  return ok();
}

interface SharedLesson {
  title: string;
  /** Sanitized HTML, as stored by the lesson's writer. */
  theory: string;
  imageUrl: string | null;
  imageCredit: LessonCredit | null;
  youtubeId: string | null;
}

export interface SharedCourse {
  title: string;
  type: CourseType;
  language: string;
  photoUrl: string | null;
  topics: { title: string; lessons: SharedLesson[] }[];
  lessonCount: number;
  /** Changes whenever anything the page shows does (for its ETag). */
  version: string;
}

async function readCourse(course: Course): Promise<SharedCourse> {
  const lessons = await listLessonsOfCourse(course.id);
  const topics = (await courseOutline(course.id)).map((topic) => ({
    title: topic.title,
    lessons: lessons
      .filter((lesson) => lesson.topicId === topic.id)
      .map((lesson) => ({
        title: lesson.title,
        theory: lesson.theory ?? '',
        imageUrl: course.type === 'text' ? lesson.imageUrl : null,
        imageCredit: course.type === 'text' ? parseCredit(lesson.imageCredit) : null,
        youtubeId: course.type === 'video' ? lesson.youtubeId : null,
      })),
  }));
  const shown = { title: course.mainTopic, type: course.type, language: course.language, topics };
  return {
    ...shown,
    photoUrl: course.photoUrl,
    lessonCount: lessons.length,
    version: createHash('sha256')
      .update(JSON.stringify([shown, course.photoUrl]))
      .digest('base64url')
      .slice(0, 22),
  };
}

/** The course behind a live link, as anyone may read it; undefined once revoked. */
export async function readSharedCourse(token: string): Promise<SharedCourse | undefined> {
  const courseId = await courseIdOfShare(token);
  const course = courseId ? await getCourse(courseId) : undefined;
  return course ? readCourse(course) : undefined;
}

/**
 * Copy to my courses: the shared course becomes the member's own, with its lessons, media,
 * quizzes and flashcards as written (no AI call, so no allowance) and progress from zero (their
 * own schedule: every card new). It is a course of
 * theirs like any other, so their plan must allow it, as on /create.
 */
export async function copySharedCourse(user: User, token: string): Promise<Result<string>> {
  const courseId = await courseIdOfShare(token);
  const source = courseId ? await getCourse(courseId) : undefined;
  if (!source) return fail('Not Found', 404);
  const outline = await courseOutline(source.id);
  const refused = planRefusal(user.plan, { topicCount: outline.length, type: source.type });
  if (refused) return fail(refused, 403);

  const lessons = new Map(
    (await listLessonsOfCourse(source.id)).map((lesson) => [lesson.id, lesson]),
  );
  const quizzes = await listQuizzesOfCourse(source.id);
  const decks = await writtenDecksOfCourse(source.id);
  const { course } = await createCourseWithLessons({
    userId: user.id,
    mainTopic: source.mainTopic,
    type: source.type,
    language: source.language,
    photo: source.photoUrl ? { url: source.photoUrl, credit: source.photoCredit } : null,
    topics: outline.map((topic) => ({
      title: topic.title,
      lessons: topic.lessons.map(({ id }) => {
        const lesson = lessons.get(id)!;
        return {
          title: lesson.title,
          theory: lesson.theory,
          imageUrl: lesson.imageUrl,
          imageCredit: lesson.imageCredit,
          youtubeId: lesson.youtubeId,
          flashcards: decks.get(id),
        };
      }),
      quizQuestions: quizzes.find((quiz) => quiz.topicId === topic.id)?.questions,
    })),
    examQuestions: quizzes.find((quiz) => quiz.kind === 'exam')?.questions,
  });
  // Only a quiz or a deck the source had not finished yet is still owed a job.
  await keepQuizzesGenerating(course.id);
  await keepCourseDecksWriting(course.id);
  return ok(course.id);
}
