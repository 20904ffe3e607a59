import { parentPort } from 'node:worker_threads';
import type { ExportCourse } from './course-export.server';
import { coursePdf } from './pdf.server';

/** The body of the PDF thread (pdf-pool.server.ts): one course in, its PDF bytes out. */
export interface PdfTask {
  id: number;
  course: ExportCourse;
  images: [string, Uint8Array | null][];
  origin: string;
}

parentPort?.on('message', (task: PdfTask) => {
  const images = new Map(
    task.images.map(([url, bytes]) => [url, bytes ? Buffer.from(bytes) : null] as const),
  );
  coursePdf(task.course, images, task.origin).then(
    (pdf) => parentPort!.postMessage({ id: task.id, pdf }),
    (error: unknown) => parentPort!.postMessage({ id: task.id, error: String(error) }),
  );
});
