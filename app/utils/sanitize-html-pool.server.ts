import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { log } from './logger.server';
import { sanitizeHtml } from './sanitize-html.server';
import { startThread } from './threads.server';

/**
 * Sanitizing is pure CPU: a 100,000-character lesson costs about 100 ms, a whole maximum-size
 * course about a second. Texts that size go to a small pool of worker threads so the request
 * thread keeps serving other members meanwhile; short texts are cheaper to do in place.
 */
const IN_PLACE_LIMIT = 16 * 1024;
const POOL_SIZE = Math.max(1, Math.min(2, os.availableParallelism() - 1));
/** After this many threads die or fail to start, sanitize in place and say so once. */
const GIVE_UP_AFTER_FAILURES = 3;

interface Task {
  id: number;
  html: string;
  resolve: (safe: string) => void;
}
interface Thread {
  worker: Worker;
  task: Task | null;
}

class SanitizerPool {
  private threads: Thread[] = [];
  private waiting: Task[] = [];
  private nextId = 1;
  private failures = 0;

  run(html: string): Promise<string> {
    if (this.failures >= GIVE_UP_AFTER_FAILURES) return Promise.resolve(sanitizeHtml(html));
    return new Promise((resolve) => {
      this.waiting.push({ id: this.nextId++, html, resolve });
      this.dispatch();
    });
  }

  private dispatch() {
    while (this.waiting.length > 0) {
      let thread = this.threads.find((candidate) => !candidate.task);
      if (!thread && this.threads.length < POOL_SIZE) thread = this.spawn();
      if (!thread) return;
      const task = this.waiting.shift()!;
      thread.task = task;
      thread.worker.postMessage({ id: task.id, html: task.html });
    }
  }

  private spawn(): Thread {
    const worker = startThread('sanitize-html', 'app/utils/sanitize-html-thread.server.ts');
    // Idle threads must not keep a stopping process alive.
    worker.unref();
    const thread: Thread = { worker, task: null };
    worker.on('message', ({ id, html }: { id: number; html: string }) => {
      if (thread.task?.id !== id) return;
      const { resolve } = thread.task;
      thread.task = null;
      resolve(html);
      this.dispatch();
    });
    const lose = (error: unknown) => {
      if (!this.threads.includes(thread)) return;
      this.threads = this.threads.filter((candidate) => candidate !== thread);
      this.failures += 1;
      log.warn('sanitizer.thread_failed', { error, fallback: 'in place' });
      // The text is still sanitized, only on this thread.
      if (thread.task) thread.task.resolve(sanitizeHtml(thread.task.html));
      thread.task = null;
      void worker.terminate();
      if (this.failures >= GIVE_UP_AFTER_FAILURES) {
        for (const task of this.waiting.splice(0)) task.resolve(sanitizeHtml(task.html));
      } else this.dispatch();
    };
    worker.on('error', lose);
    worker.on('exit', (code) => lose(new Error(`sanitizer thread exited with code ${code}`)));
    this.threads.push(thread);
    return thread;
  }
}

let pool: SanitizerPool | null = null;

/** `sanitizeHtml`, with long texts sanitized on a worker thread instead of the calling one. */
export function sanitizeHtmlOffThread(html: string): Promise<string> {
  if (html.length < IN_PLACE_LIMIT) return Promise.resolve(sanitizeHtml(html));
  pool ??= new SanitizerPool();
  return pool.run(html);
}
