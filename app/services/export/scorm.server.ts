import { courseExportRefusal } from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { SCORM_MASTERY_SCORE, SCORM_NOT_READY_MESSAGE } from '~/domain/scorm';
import { listQuizzesOfCourse } from '~/models/quizzes.server';
import type { User } from '~/models/users.server';
import { planOf } from '~/services/plans.server';
import { requireUser } from '~/utils/auth.server';
import { env } from '~/utils/env.server';
import { memberSlots } from '~/utils/member-slots';
import { exportableCourse, exportSlug, imageUrlsOf, loadImages } from './course-export.server';
import { exportResponse, textResponse, type ExportFile } from './export.server';
import { scormPackageFiles, zipScormPackage, type ScormQuizInput } from './scorm-package.server';

/**
 * "Download for an LMS (SCORM 1.2)" (ADR 34): the owner's finished course as one zip an LMS
 * imports as one course. Another member's course, or none: 404. A plan without it: 403 (a free
 * member's 'For paid members only'). A course with a lesson or a quiz still being written: 409, since an LMS
 * package cannot be updated once learners take it.
 */
export async function exportScormPackage(
  user: Pick<User, 'id' | 'plan'>,
  courseId: string,
  origin: string,
): Promise<Result<ExportFile>> {
  const course = await exportableCourse(user.id, courseId, { notes: false });
  if (!course) return fail('Not Found', 404);
  const refused = courseExportRefusal(await planOf(user.plan), 'scorm');
  if (refused) return fail(refused, 403);

  const quizzes = await listQuizzesOfCourse(course.id);
  const written = course.topics.every((topic) => topic.lessons.every((lesson) => lesson.blocks));
  if (!written || quizzes.some((quiz) => !quiz.questions))
    return fail(SCORM_NOT_READY_MESSAGE, 409);

  const images = await loadImages(imageUrlsOf(course));
  const files = scormPackageFiles(
    course,
    quizzes.map((quiz): ScormQuizInput => ({
      kind: quiz.kind,
      topicId: quiz.topicId,
      questions: quiz.questions ?? [],
    })),
    images,
    { origin, masteryScore: SCORM_MASTERY_SCORE },
  );
  return ok({
    filename: `${exportSlug(course.title)}-scorm12.zip`,
    contentType: 'application/zip',
    body: await zipScormPackage(files),
  });
}

/**
 * Packages one member may have under way at once in a web process, like PDFs (ADR 36): each
 * fetches every image of the course and holds the zip in memory until it is sent.
 */
const MAX_SCORM_EXPORTS_PER_MEMBER = 2;
export const SCORM_EXPORTS_BUSY_MESSAGE =
  'Your other downloads for an LMS are still being made. Please try again in a few seconds.';
const scormExportSlots = memberSlots(MAX_SCORM_EXPORTS_PER_MEMBER);

/** `GET /course/:courseId/export.scorm.zip`: the zip, or the refusal as plain text a person reads. */
export async function scormRouteResponse(
  request: Request,
  courseId: string | undefined,
): Promise<Response> {
  const user = await requireUser(request);
  const release = scormExportSlots.take(user.id);
  if (!release) return textResponse(429, SCORM_EXPORTS_BUSY_MESSAGE, { 'Retry-After': '5' });
  try {
    const origin = env().APP_URL ?? new URL(request.url).origin;
    const result = await exportScormPackage(user, courseId ?? '', origin);
    return result.ok ? exportResponse(result.value) : textResponse(result.status, result.message);
  } finally {
    release();
  }
}
