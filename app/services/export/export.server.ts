import { requireUser } from '~/utils/auth.server';
import { env } from '~/utils/env.server';
import { exportableCourse, exportSlug, imageUrlsOf, loadImages } from './course-export.server';
import { courseMarkdown } from './markdown.server';
import { coursePdfOffThread } from './pdf-pool.server';

export type ExportFormat = 'md' | 'pdf';

export interface ExportFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

/**
 * One course export for its owner; undefined when the course is not theirs (the route answers
 * 404). `origin` makes the app's own image paths absolute in the file.
 */
export async function exportCourse(
  userId: string,
  courseId: string,
  format: ExportFormat,
  options: { notes: boolean; origin: string },
): Promise<ExportFile | undefined> {
  const course = exportableCourse(userId, courseId, { notes: options.notes });
  if (!course) return undefined;
  const filename = `${exportSlug(course.title)}.${format}`;
  if (format === 'md') {
    return {
      filename,
      contentType: 'text/markdown; charset=utf-8',
      body: Buffer.from(courseMarkdown(course, options.origin), 'utf8'),
    };
  }
  const images = await loadImages(imageUrlsOf(course));
  return {
    filename,
    contentType: 'application/pdf',
    body: await coursePdfOffThread(course, images, options.origin),
  };
}

/** The route's answer: the file as an attachment, never cached by anyone else. */
export function exportResponse(file: ExportFile): Response {
  return new Response(new Uint8Array(file.body), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.body.length),
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

/**
 * Both export routes: owner only (anyone else's course, or none, answers 404), `?notes=1`
 * adds the member's lesson notes.
 */
export async function exportRouteResponse(
  request: Request,
  courseId: string | undefined,
  format: ExportFormat,
): Promise<Response> {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const file = await exportCourse(user.id, courseId ?? '', format, {
    notes: url.searchParams.get('notes') === '1',
    origin: env().APP_URL ?? url.origin,
  });
  if (!file) throw new Response('Not Found', { status: 404 });
  return exportResponse(file);
}
