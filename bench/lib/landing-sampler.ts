import { Worker } from 'node:worker_threads';

/**
 * The sampler's loop, in a thread of its own: timed in the thread that sends the load, a page's
 * answer would wait for that thread to finish handling hundreds of other responses, and the
 * figure would be the load generator's, not the server's.
 */
const SAMPLER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { url, everyMs } = workerData;
const samples = [];
let errors = 0;
let stopping = false;
let open = 0;
const finishIfDone = () => { if (stopping && open === 0) parentPort.postMessage({ samples, errors }); };
const sample = () => {
  const started = performance.now();
  open += 1;
  const settle = () => { open -= 1; finishIfDone(); };
  http.get(url, { agent: false }, (response) => {
    response.resume();
    response.on('end', () => { samples.push(performance.now() - started); settle(); });
  }).on('error', () => { errors += 1; settle(); });
};
const timer = setInterval(sample, everyMs);
sample();
parentPort.on('message', () => { stopping = true; clearInterval(timer); finishIfDone(); });
`;

/**
 * Requests `url` every `everyMs` (open loop: whether or not the previous one answered, each on a
 * connection of its own, as visitors arrive) until stopped; `stop` resolves to every latency, or
 * rejects if any request failed.
 */
export function startSampler(url: string, everyMs: number) {
  const worker = new Worker(SAMPLER, { eval: true, workerData: { url, everyMs } });
  return {
    stop: async (): Promise<number[]> => {
      const result = new Promise<{ samples: number[]; errors: number }>((resolve) =>
        worker.once('message', resolve),
      );
      worker.postMessage('stop');
      const { samples, errors } = await result;
      await worker.terminate();
      if (errors > 0) throw new Error(`${errors} of the sampled requests to ${url} failed`);
      return samples;
    },
  };
}
