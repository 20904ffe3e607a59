import { timingSafeEqual } from 'node:crypto';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import { noteOnSpan } from './tracing.server';
import { METRICS_COLLECT, METRICS_COLLECTED } from './node-metrics.server';

/**
 * This process's Prometheus metrics (ADR 0056), named by Prometheus's conventions: units in the
 * names, `_total` counters, seconds. Labels carry route templates, queue names, providers and
 * outcomes, never a member's id or a raw URL. Recording one is an increment in memory; the
 * figures read from elsewhere (write turns, queues, the database pool, Redis) are read when
 * Prometheus scrapes, never on a request's path.
 *
 * One registry per process; the start asks each of its processes for theirs over IPC and answers
 * the node's sum (server/node-metrics.ts), so a node is one scrape target.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });
// Gauges named as counters, which promtool refuses; `nodejs_active_handles` and the like, by
// type, hold the same figures.
for (const name of [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
])
  registry.removeSingleMetric(name);

/** Seconds: from a quick JSON read to a slow page on a busy database. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: an AI call or a job runs from a second to minutes. */
const SLOW_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

const httpRequestDuration = new Histogram({
  name: 'coursegen_http_request_duration_seconds',
  help: 'HTTP requests answered, by method, route template and status, and how long each took',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One answered request; `route` is its route's template (server/route-template.ts). */
export function observeRequest(method: string, route: string, status: number, seconds: number) {
  httpRequestDuration
    .labels(METHODS.has(method) ? method : 'other', route, String(status))
    .observe(seconds);
}

/** A figure read at scrape time; `undefined` leaves it out. */
type Source<T> = () => T | undefined;

let writeTurns: Source<{ running: number; waiting: number; refused: number }> = () => undefined;

/** The web server's write turns (server/write-turns.ts), read at each scrape. */
export function watchWriteTurns(counts: NonNullable<typeof writeTurns>) {
  writeTurns = counts;
}

new Gauge({
  name: 'coursegen_write_turns_running',
  help: 'Writes (POST and the like) running now',
  registers: [registry],
  collect() {
    const counts = writeTurns();
    if (counts) this.set(counts.running);
  },
});
new Gauge({
  name: 'coursegen_write_turns_waiting',
  help: 'Writes waiting for their turn now',
  registers: [registry],
  collect() {
    const counts = writeTurns();
    if (counts) this.set(counts.waiting);
  },
});
new Counter({
  name: 'coursegen_write_turns_refused_total',
  help: 'Writes refused with 503 because too many were waiting',
  registers: [registry],
  collect() {
    const counts = writeTurns();
    if (counts) {
      this.reset();
      this.inc(counts.refused);
    }
  },
});

let queueCounts: Source<Promise<Record<string, Record<string, number>>>> = () => undefined;

/** The worker's queues: their jobs by state, read from Redis at each scrape. */
export function watchQueues(counts: NonNullable<typeof queueCounts>) {
  queueCounts = counts;
}

new Gauge({
  name: 'coursegen_queue_jobs',
  help: 'Jobs in each queue by state (waiting, active, delayed, completed, failed), read from Redis',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  // Summed over a node's processes: only the worker reports it.
  async collect() {
    const byQueue = await queueCounts()?.catch(() => undefined);
    this.reset();
    for (const [queue, states] of Object.entries(byQueue ?? {}))
      for (const [state, count] of Object.entries(states)) this.labels(queue, state).set(count);
  },
});

export const jobDuration = new Histogram({
  name: 'coursegen_job_duration_seconds',
  help: 'Job runs by queue and outcome (completed, failed), and how long each took',
  labelNames: ['queue', 'outcome'] as const,
  buckets: SLOW_BUCKETS,
  registers: [registry],
});

const aiRequests = new Counter({
  name: 'coursegen_ai_requests_total',
  help: 'Calls to the AI provider by provider, model, purpose and outcome',
  labelNames: ['provider', 'model', 'purpose', 'outcome'] as const,
  registers: [registry],
});
const aiRequestDuration = new Histogram({
  name: 'coursegen_ai_request_duration_seconds',
  help: 'How long calls to the AI provider took, by provider, model and purpose',
  labelNames: ['provider', 'model', 'purpose'] as const,
  buckets: SLOW_BUCKETS,
  registers: [registry],
});
const aiTokens = new Counter({
  name: 'coursegen_ai_tokens_total',
  help: 'Tokens sent to (in) and written by (out) the AI provider, as it reports them',
  labelNames: ['provider', 'model', 'direction'] as const,
  registers: [registry],
});

export interface AiCallRecord {
  provider: string;
  model: string;
  purpose: string;
  outcome: 'ok' | 'rate_limited' | 'failed';
  seconds: number;
}

export function recordAiCall({ provider, model, purpose, outcome, seconds }: AiCallRecord) {
  aiRequests.labels(provider, model, purpose, outcome).inc();
  aiRequestDuration.labels(provider, model, purpose).observe(seconds);
}

/** An AI call's tokens, counted here and, with traces on, noted on the call's span (ADR 0064). */
export function recordAiTokens(provider: string, model: string, input: number, output: number) {
  noteOnSpan({ 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output });
  if (input > 0) aiTokens.labels(provider, model, 'in').inc(input);
  if (output > 0) aiTokens.labels(provider, model, 'out').inc(output);
}

const written = {
  lesson: new Counter({
    name: 'coursegen_lessons_written_total',
    help: 'Lessons written by the AI and stored (a lesson written again on request is not counted)',
    registers: [registry],
  }),
  quiz: new Counter({
    name: 'coursegen_quizzes_written_total',
    help: 'Quizzes written by the AI and stored',
    registers: [registry],
  }),
  flashcard: new Counter({
    name: 'coursegen_flashcards_written_total',
    help: 'Flashcards written by the AI and stored (a lesson deck counts its cards)',
    registers: [registry],
  }),
};

export function recordWritten(kind: keyof typeof written, count = 1) {
  if (count > 0) written[kind].inc(count);
}

const webhooks = new Counter({
  name: 'coursegen_webhooks_received_total',
  help: 'Payment webhooks received, by provider and outcome',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});

export function recordWebhook(provider: string, outcome: string) {
  webhooks.labels(provider, outcome).inc();
}

const rateLimitRefusals = new Counter({
  name: 'coursegen_rate_limit_refusals_total',
  help: 'Requests refused by a rate limit, by limit',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export function recordRateLimitRefusal(limit: string) {
  rateLimitRefusals.labels(limit).inc();
}

let databasePool: Source<{ total: number; idle: number; waiting: number }> = () => undefined;
let redisUp: Source<boolean> = () => undefined;

/** The process's PostgreSQL pool and Redis connection, read at each scrape. */
export function watchConnections(sources: {
  databasePool: typeof databasePool;
  redisUp: typeof redisUp;
}) {
  databasePool = sources.databasePool;
  redisUp = sources.redisUp;
}

new Gauge({
  name: 'coursegen_database_pool_connections',
  help: 'PostgreSQL pool connections by state (open, idle) and queries waiting for one',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const pool = databasePool();
    this.reset();
    if (!pool) return;
    this.labels('open').set(pool.total);
    this.labels('idle').set(pool.idle);
    this.labels('waiting').set(pool.waiting);
  },
});

const databaseQueryErrors = new Counter({
  name: 'coursegen_database_query_errors_total',
  help: 'Requests failed by the database, by kind (busy: locked or no free connection; other)',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export function recordDatabaseError(kind: 'busy' | 'other') {
  databaseQueryErrors.labels(kind).inc();
}

new Gauge({
  name: 'coursegen_redis_up',
  help: 'Whether this node reaches Redis (1) or not (0): the lowest of its processes',
  registers: [registry],
  aggregator: 'min',
  collect() {
    const up = redisUp();
    if (up !== undefined) this.set(up ? 1 : 0);
  },
});

export const METRICS_CONTENT_TYPE = registry.contentType;

/** This process's metrics as JSON, which prom-client sums across processes. */
function processMetrics(): Promise<MetricObjectWithValues<MetricValue<string>>[]> {
  return registry.getMetricsAsJSON();
}

/** Whether an `Authorization` header carries METRICS_TOKEN as a bearer token. */
export function carriesMetricsToken(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '');
  const wanted = Buffer.from(token);
  return wanted.length > 0 && given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Answers the start's requests for this process's metrics over IPC (server/node-metrics.ts),
 * when it runs under the start (web processes and the worker have a channel to it).
 */
const answer = (message: object) => {
  if (process.connected) process.send?.(message);
};
if (process.send) {
  process.on('message', (message: unknown) => {
    const request = message as { type?: unknown; id?: unknown } | null;
    if (request?.type !== METRICS_COLLECT) return;
    void processMetrics().then(
      (metrics) => answer({ type: METRICS_COLLECTED, id: request.id, metrics }),
      () => answer({ type: METRICS_COLLECTED, id: request.id, metrics: [] }),
    );
  });
}
