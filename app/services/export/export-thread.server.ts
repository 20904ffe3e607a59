import { parentPort } from 'node:worker_threads';
import { runExportJob, type ExportJob } from './export-jobs.server';

/** The body of the export thread (export-pool.server.ts): one job in, its result out. */
export interface ExportTask {
  id: number;
  job: ExportJob;
}

parentPort?.on('message', (task: ExportTask) => {
  runExportJob(task.job).then(
    (result) => parentPort!.postMessage({ id: task.id, result }),
    (error: unknown) => parentPort!.postMessage({ id: task.id, error: String(error) }),
  );
});
