import type { Worker } from 'node:worker_threads';
import { FairQueue } from '~/utils/fair-queue';
import { log } from '~/utils/logger.server';
import { startThread } from '~/utils/threads.server';
import type { ExportCourse } from './course-export.server';
import type { PdfTask } from './pdf-thread.server';
import { coursePdf } from './pdf.server';

/**
 * Drawing a large course's PDF is seconds of CPU (bench/export.ts); on the request thread it
 * would stall every other member this web process serves (ADR 0014). One worker thread per
 * process draws PDFs one after another, taking turns between members (a member's next PDF waits
 * behind every other member's next one, ADR 36); if it cannot start or dies, PDFs are drawn in
 * place (slower for others, never a failed export).
 */
const GIVE_UP_AFTER_FAILURES = 3;

interface Pending {
  task: PdfTask;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}

class PdfThread {
  private worker: Worker | null = null;
  private current: Pending | null = null;
  private waiting = new FairQueue<Pending>();
  private nextId = 1;
  private failures = 0;

  run(
    memberId: string,
    course: ExportCourse,
    images: Map<string, Buffer | null>,
    origin: string,
  ): Promise<Buffer> {
    if (this.failures >= GIVE_UP_AFTER_FAILURES) return coursePdf(course, images, origin);
    return new Promise((resolve, reject) => {
      const task: PdfTask = { id: this.nextId++, course, images: [...images], origin };
      this.waiting.push(memberId, { task, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch() {
    if (this.current || this.waiting.size === 0) return;
    this.worker ??= this.spawn();
    this.current = this.waiting.shift()!;
    this.worker.postMessage(this.current.task);
  }

  private spawn(): Worker {
    const worker = startThread('export-pdf', 'app/services/export/pdf-thread.server.ts');
    // An idle thread must not keep a stopping process alive.
    worker.unref();
    worker.on('message', (message: { id: number; pdf?: Uint8Array; error?: string }) => {
      const pending = this.current;
      if (pending?.task.id !== message.id) return;
      this.current = null;
      if (message.pdf) pending.resolve(Buffer.from(message.pdf));
      else pending.reject(new Error(message.error ?? 'PDF thread failed'));
      this.dispatch();
    });
    const lose = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failures += 1;
      log.warn('export.pdf_thread_failed', { error, fallback: 'in place' });
      void worker.terminate();
      const lost = [...(this.current ? [this.current] : []), ...this.waiting.drain()];
      this.current = null;
      for (const { task, resolve, reject } of lost) {
        const images = new Map(
          task.images.map(([url, bytes]) => [url, bytes ? Buffer.from(bytes) : null] as const),
        );
        coursePdf(task.course, images, task.origin).then(resolve, reject);
      }
    };
    worker.on('error', lose);
    worker.on('exit', (code) => lose(new Error(`PDF thread exited with code ${code}`)));
    return worker;
  }
}

let thread: PdfThread | null = null;

/** `coursePdf` for `memberId`, drawn on the process's PDF thread instead of the calling one. */
export function coursePdfOffThread(
  memberId: string,
  course: ExportCourse,
  images: Map<string, Buffer | null>,
  origin: string,
): Promise<Buffer> {
  thread ??= new PdfThread();
  return thread.run(memberId, course, images, origin);
}
