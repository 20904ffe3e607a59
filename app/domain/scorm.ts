/**
 * The SCORM 1.2 package of a course (ADR 34), as the course view and the export share it.
 * Browser-safe: no server imports.
 */

/**
 * The final exam's pass mark, in percent: written into the manifest as `adlcp:masteryscore`, so
 * the LMS hands it back as `cmi.student_data.mastery_score` (an LMS may let an instructor
 * change it there); the package uses this value only when the LMS gives none.
 */
export const SCORM_MASTERY_SCORE = 80;

export const SCORM_NOT_READY_MESSAGE =
  'The course is still being written: download it for an LMS once every lesson and quiz is ready';

/** `GET` this for the zip (owner only, paid plans only). */
export function scormExportPath(courseId: string): string {
  return `/course/${encodeURIComponent(courseId)}/export.scorm.zip`;
}
