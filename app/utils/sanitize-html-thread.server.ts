import { parentPort } from 'node:worker_threads';
import { sanitizeHtml } from './sanitize-html.server';

/** The body of a sanitizer thread (sanitize-html-pool.server.ts): one HTML text in, safe HTML out. */
parentPort?.on('message', ({ id, html }: { id: number; html: string }) => {
  parentPort!.postMessage({ id, html: sanitizeHtml(html) });
});
