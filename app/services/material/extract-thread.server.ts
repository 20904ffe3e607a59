import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { extractDocument, extractText } from './extract.server';

/** The body of the extraction thread (extract-pool.server.ts): one document in, its sections out. */
export type ExtractTask = { id: number } & (
  | { name: string; bytes: Uint8Array }
  | { pasted: string }
);

/**
 * Reading documents is background work: on Linux a thread's nice value is its own, so this
 * thread yields the cores to the web process's request thread (and to other members' pages)
 * whenever both want them. Elsewhere it is the process's, which is left alone.
 */
export const EXTRACTION_NICENESS = 10;
if (process.platform === 'linux') {
  try {
    os.setPriority(EXTRACTION_NICENESS);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}

parentPort?.on('message', (task: ExtractTask) => {
  const reading =
    'pasted' in task
      ? Promise.resolve(extractText(task.pasted, 'pasted'))
      : extractDocument(task.name, task.bytes);
  reading.then(
    (result) => parentPort!.postMessage({ id: task.id, result }),
    (error: unknown) =>
      parentPort!.postMessage({ id: task.id, error: String((error as Error)?.message ?? error) }),
  );
});
