import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';

/** What one load run of a URL gave. */
export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time of the serving process per request, µs; absent when it cannot be read. */
  cpuUs?: number;
}

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of a process so far, in µs (Linux), or undefined elsewhere. */
function cpuTimeUs(pid: number | undefined): number | undefined {
  if (pid === undefined || !fs.existsSync(`/proc/${pid}/stat`)) return undefined;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}

/**
 * autocannon against `url` for `seconds` with `connections`, and the CPU time `pid` (the process
 * that serves it) spent per request meanwhile, which a busy machine disturbs less than req/s.
 */
export async function load(
  url: string,
  options: { cookie?: string; pid?: number; seconds: number; connections: number },
): Promise<Sample> {
  const cpuBefore = cpuTimeUs(options.pid);
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.cookie ? { Cookie: options.cookie } : {},
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpuAfter = cpuTimeUs(options.pid);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs:
      cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : (cpuAfter - cpuBefore) / result.requests.total,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
