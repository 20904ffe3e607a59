import http from 'node:http';

/**
 * The availability tests' yardstick: the landing page's median latency, fetched one request
 * after another, idle and while some abuse runs.
 */
export async function landingLatency(baseURL: string, times: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) samples.push(await timeLanding(baseURL));
  return median(samples);
}

/**
 * The landing page's median latency while `abuse` runs, sampled open-loop: a new request at a
 * steady pace whether or not the previous one has answered, as independent visitors arrive. (One
 * request after another would take a single sample through a long stall and many after it.) The
 * pace, one request per four idle latencies, keeps the sampling itself from loading the server.
 */
export async function landingLatencyDuring(
  baseURL: string,
  abuse: Promise<unknown>,
  idleMs: number,
): Promise<number> {
  const everyMs = Math.max(50, 4 * idleMs);
  let settled = false;
  void abuse.then(
    () => (settled = true),
    () => (settled = true),
  );
  const samples: Promise<number>[] = [];
  while (!settled) {
    samples.push(timeLanding(baseURL));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  await abuse;
  return median(await Promise.all(samples));
}

/** What "still serving" means on a noisy shared machine: within 10× idle, or 250 ms. */
export const busyBound = (idleMs: number) => Math.max(10 * idleMs, 250);

/** On a connection of its own, as a separate visitor's browser would be. */
function timeLanding(baseURL: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${baseURL}/`, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(performance.now() - started));
      })
      .on('error', reject);
  });
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The landing page's latencies, sampled open-loop every `everyMs` until `until` settles (or
 * for `forMs` when it is a number), each request on a connection of its own.
 */
export async function landingSamples(
  baseURL: string,
  until: Promise<unknown> | number,
  everyMs = 25,
): Promise<number[]> {
  let settled = false;
  const stop =
    typeof until === 'number' ? new Promise((resolve) => setTimeout(resolve, until)) : until;
  void stop.then(
    () => (settled = true),
    () => (settled = true),
  );
  const samples: Promise<number>[] = [];
  while (!settled) {
    const sample = timeLanding(baseURL);
    // Awaited below; until then a failure must not count as unhandled (a test stopped midway).
    sample.catch(() => undefined);
    samples.push(sample);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  await stop;
  return Promise.all(samples);
}

/** The p-th percentile (0–100) of the samples, nearest rank. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
