/**
 * The rounded percentage of done lessons that the progress circle shows. It
 * reads 100 only when every lesson is done (199 of 200 shows 99), so 100%
 * always means the course can be finished and the certificate link works.
 */
export function progressPercent(done: number, total: number): number {
  if (total === 0) return 0;
  if (done >= total) return 100;
  return Math.min(99, Math.round((done / total) * 100));
}

/** The same for a list of lessons, as the course view and the status route hold them. */
export function progressOf(lessons: readonly { done: boolean }[]): number {
  return progressPercent(lessons.filter((lesson) => lesson.done).length, lessons.length);
}
