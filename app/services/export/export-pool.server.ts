import type { Worker } from 'node:worker_threads';
import { FairQueue } from '~/utils/fair-queue';
import { log } from '~/utils/logger.server';
import { startThread } from '~/utils/threads.server';
import type { ExportCourse } from './course-export.server';
import {
  runExportJob,
  type ArchiveFile,
  type ExportJob,
  type PackedFile,
} from './export-jobs.server';
import type { ExportTask } from './export-thread.server';

/**
 * Drawing a large course's PDF is seconds of CPU (bench/export.ts); on the request thread it
 * would stall every other member this web process serves (ADR 0014). One worker thread per
 * process does the exports' CPU work one job after another (a PDF, or a batch of files of a
 * member's data export, ADR 0060), taking turns between members (a member's next job waits
 * behind every other member's next one, ADR 36); if it cannot start or dies, jobs run in place
 * (slower for others, never a failed export).
 */
const GIVE_UP_AFTER_FAILURES = 3;

type ExportResult = Uint8Array | PackedFile[];

interface Pending {
  task: ExportTask;
  resolve: (result: ExportResult) => void;
  reject: (error: Error) => void;
}

class ExportThread {
  private worker: Worker | null = null;
  private current: Pending | null = null;
  private waiting = new FairQueue<Pending>();
  private nextId = 1;
  private failures = 0;

  run(memberId: string, job: ExportJob): Promise<ExportResult> {
    if (this.failures >= GIVE_UP_AFTER_FAILURES) return runExportJob(job);
    return new Promise((resolve, reject) => {
      const task: ExportTask = { id: this.nextId++, job };
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
    const worker = startThread('export', 'app/services/export/export-thread.server.ts');
    // An idle thread must not keep a stopping process alive.
    worker.unref();
    worker.on('message', (message: { id: number; result?: ExportResult; error?: string }) => {
      const pending = this.current;
      if (pending?.task.id !== message.id) return;
      this.current = null;
      if (message.result) pending.resolve(message.result);
      else pending.reject(new Error(message.error ?? 'export thread failed'));
      this.dispatch();
    });
    const lose = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failures += 1;
      log.warn('export.thread_failed', { error, fallback: 'in place' });
      void worker.terminate();
      const lost = [...(this.current ? [this.current] : []), ...this.waiting.drain()];
      this.current = null;
      for (const { task, resolve, reject } of lost) runExportJob(task.job).then(resolve, reject);
    };
    worker.on('error', lose);
    worker.on('exit', (code) => lose(new Error(`PDF thread exited with code ${code}`)));
    return worker;
  }
}

let thread: ExportThread | null = null;

/** `coursePdf` for `memberId`, drawn on the process's export thread instead of the calling one. */
export async function coursePdfOffThread(
  memberId: string,
  course: ExportCourse,
  images: Map<string, Buffer | null>,
  origin: string,
): Promise<Buffer> {
  thread ??= new ExportThread();
  const pdf = (await thread.run(memberId, {
    kind: 'pdf',
    course,
    images: [...images],
    origin,
  })) as Uint8Array;
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}

/** Files of `memberId`'s data export, rendered and deflated on the export thread. */
export async function packFilesOffThread(
  memberId: string,
  files: ArchiveFile[],
): Promise<PackedFile[]> {
  thread ??= new ExportThread();
  return (await thread.run(memberId, { kind: 'files', files })) as PackedFile[];
}
