import { courseExportRefusal } from '~/domain/plans';
import { planOf } from '~/services/plans.server';
import { requireUser } from '~/utils/auth.server';
import { env } from '~/utils/env.server';
import { memberSlots } from '~/utils/member-slots';
import { exportableCourse, exportSlug, imageUrlsOf, loadImages } from './course-export.server';
import { courseMarkdown } from './markdown.server';
import { coursePdfOffThread } from './export-pool.server';

export type ExportFormat = 'md' | 'pdf';

/**
 * PDF exports one member may have under way at once in a web process (ADR 36): each is seconds of
 * the PDF thread, so a member's many parallel downloads would hold up everyone else's.
 */
const MAX_PDF_EXPORTS_PER_MEMBER = 2;
const PDF_EXPORTS_BUSY_MESSAGE =
  'Your other PDF downloads are still being made. Please try again in a few seconds.';
/** A large course's PDF takes about two seconds (bench/export.ts). */
const PDF_EXPORTS_RETRY_AFTER_SECONDS = 5;
const pdfExportSlots = memberSlots(MAX_PDF_EXPORTS_PER_MEMBER);

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
  const course = await exportableCourse(userId, courseId, { notes: options.notes });
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
    body: await coursePdfOffThread(userId, course, images, options.origin),
  };
}

/** A refusal as plain text a person reads (the routes are downloads, not pages). */
export function textResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  return new Response(message, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'private, no-store',
      ...headers,
    },
  });
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
 * Both export routes: owner only (anyone else's course, or none, answers 404), on a plan that
 * includes the format (else 403 with the reason), `?notes=1` adds the member's lesson notes. A PDF beyond the member's MAX_PDF_EXPORTS_PER_MEMBER under way
 * answers 429 with Retry-After.
 */
export async function exportRouteResponse(
  request: Request,
  courseId: string | undefined,
  format: ExportFormat,
): Promise<Response> {
  const user = await requireUser(request);
  const refused = courseExportRefusal(await planOf(user.plan), format);
  if (refused) return textResponse(403, refused);
  const release = format === 'pdf' ? pdfExportSlots.take(user.id) : () => undefined;
  if (!release)
    return textResponse(429, PDF_EXPORTS_BUSY_MESSAGE, {
      'Retry-After': String(PDF_EXPORTS_RETRY_AFTER_SECONDS),
    });
  try {
    const url = new URL(request.url);
    const file = await exportCourse(user.id, courseId ?? '', format, {
      notes: url.searchParams.get('notes') === '1',
      origin: env().APP_URL ?? url.origin,
    });
    if (!file) throw new Response('Not Found', { status: 404 });
    return exportResponse(file);
  } finally {
    release();
  }
}
