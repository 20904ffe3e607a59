import type { Worker } from 'node:worker_threads';
import { MATERIAL_MESSAGES } from '~/domain/material';
import { fail, type Result } from '~/domain/result';
import { log } from '~/utils/logger.server';
import { startThread } from '~/utils/threads.server';
import type { ExtractTask, StorableMaterial } from './extract-thread.server';

/**
 * Documents are read on a worker thread of the web process, never on the request thread
 * (ADR 0014, 0032): a 200-page PDF is seconds of CPU. One thread per process reads them one
 * after another, at a lower CPU priority (extract-thread.server.ts). A document that takes
 * longer than EXTRACTION_TIMEOUT_MS, or makes the thread run out of memory or die, is refused
 * and the thread is replaced; an idle thread is ended after IDLE_MS, so its memory (pdf.js,
 * mammoth) is only held while members upload.
 */
const EXTRACTION_TIMEOUT_MS = 60_000;
const IDLE_MS = 60_000;
/** Documents waiting for the thread beyond this many: the member is asked to try again. */
const MAX_WAITING = 8;
/** The thread's heap: far more than a 10 MB document needs, bounded so one cannot take the process. */
const THREAD_HEAP_MB = 512;

interface Pending {
  task: ExtractTask;
  resolve: (result: Result<StorableMaterial>) => void;
}

class ExtractionThread {
  private worker: Worker | null = null;
  private current: Pending | null = null;
  private waiting: Pending[] = [];
  private nextId = 1;
  private deadline: NodeJS.Timeout | null = null;
  private idle: NodeJS.Timeout | null = null;

  run(input: MaterialInput): Promise<Result<StorableMaterial>> {
    if (this.waiting.length >= MAX_WAITING)
      return Promise.resolve(fail(MATERIAL_MESSAGES.busy, 503));
    return new Promise((resolve) => {
      this.waiting.push({ task: { id: this.nextId++, ...input }, resolve });
      this.dispatch();
    });
  }

  private dispatch() {
    if (this.current || this.waiting.length === 0) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker ??= this.spawn();
    const pending = this.waiting.shift()!;
    this.current = pending;
    this.deadline = setTimeout(
      () => this.lose(new Error('timed out'), fail(MATERIAL_MESSAGES.timedOut, 422)),
      EXTRACTION_TIMEOUT_MS,
    );
    this.deadline.unref();
    // The bytes move to the thread (no copy); the request has no further use for them.
    const { task } = pending;
    const transfer =
      'bytes' in task && task.bytes.buffer instanceof ArrayBuffer ? [task.bytes.buffer] : [];
    this.worker.postMessage(pending.task, transfer);
  }

  private settle(result: Result<StorableMaterial>) {
    const pending = this.current;
    this.current = null;
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = null;
    pending?.resolve(result);
    if (this.waiting.length > 0) this.dispatch();
    else if (this.worker) {
      const worker = this.worker;
      this.idle = setTimeout(() => {
        if (this.worker === worker && !this.current) {
          this.worker = null;
          void worker.terminate();
        }
      }, IDLE_MS);
      this.idle.unref();
    }
  }

  /** The thread failed (or took too long): its document is refused, the next gets a new thread. */
  private lose(error: unknown, result: Result<StorableMaterial>) {
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
    const task = this.current?.task;
    log.warn('material.thread_failed', {
      error,
      document: task && 'name' in task ? task.name : 'pasted text',
    });
    this.settle(result);
  }

  private spawn(): Worker {
    const worker = startThread('material', 'app/services/material/extract-thread.server.ts', {
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    // An idle thread must not keep a stopping process alive.
    worker.unref();
    worker.on(
      'message',
      (message: { id: number; result?: Result<StorableMaterial>; error?: string }) => {
        if (this.worker !== worker || this.current?.task.id !== message.id) return;
        if (message.result) this.settle(message.result);
        else
          this.lose(new Error(message.error), fail(MATERIAL_MESSAGES.unreadable('document'), 422));
      },
    );
    const died = (error: unknown) => {
      if (this.worker !== worker) return;
      if (this.current) this.lose(error, fail(MATERIAL_MESSAGES.unreadable('document'), 422));
      else this.worker = null;
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`extraction thread exited with code ${code}`)));
    return worker;
  }
}

/** A document's name and bytes, or pasted text. */
export type MaterialInput = { name: string; bytes: Uint8Array } | { pasted: string };

let thread: ExtractionThread | null = null;

/**
 * `extractDocument` (or `extractText` for pasted text: 100,000 characters are tens of
 * milliseconds of parsing), run on the process's extraction thread instead of the calling one.
 */
export function extractMaterialOffThread(input: MaterialInput): Promise<Result<StorableMaterial>> {
  thread ??= new ExtractionThread();
  return thread.run(input);
}
