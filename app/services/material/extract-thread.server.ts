import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { Result } from '~/domain/result';
import { extractDocument, extractText, type ExtractedMaterial } from './extract.server';

/**
 * What the request thread gets back: the sections already as the JSON text they are stored as,
 * so it neither copies a large object graph across nor serializes it again (a 200-page
 * document's sections are most of a megabyte).
 */
export type StorableMaterial = Omit<ExtractedMaterial, 'sections'> & { sectionsJson: string };

function forStorage(result: Result<ExtractedMaterial>): Result<StorableMaterial> {
  if (!result.ok) return result;
  const { sections, ...rest } = result.value;
  return { ok: true, value: { ...rest, sectionsJson: JSON.stringify(sections) } };
}

/** The body of the extraction thread (extract-pool.server.ts): one document in, its sections out. */
export type ExtractTask = { id: number } & (
  { name: string; bytes: Uint8Array } | { pasted: string }
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
    (result) => parentPort!.postMessage({ id: task.id, result: forStorage(result) }),
    (error: unknown) =>
      parentPort!.postMessage({ id: task.id, error: String((error as Error)?.message ?? error) }),
  );
});
