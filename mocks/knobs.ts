import fs from 'node:fs';
import path from 'node:path';

/**
 * How the vendor mocks misbehave, for tests and benchmarks. Each knob comes
 * from the environment, and can be overridden while the product runs by a JSON
 * file (`MOCK_KNOBS_FILE`, default `$DATA_DIR/mock-knobs.json`), e.g.
 * `{"MOCK_AI_FAIL_FIRST": 3, "MOCK_AI_FAIL_MATCH": "Closures"}`, so a test can
 * change the behaviour of an already running worker. Read on every request.
 *
 * - MOCK_AI_LATENCY_MS: wait this long before each AI answer (a streamed one: its first words).
 * - MOCK_AI_STREAM_CHUNK_MS: a streamed answer sends a few words every this many ms (default 30).
 * - MOCK_AI_FAIL_FIRST: the first N calls of each distinct prompt fail...
 * - MOCK_AI_FAIL_STATUS: ...with this status (429, 500 or 529; default 529).
 * - MOCK_AI_FAIL_MATCH: only prompts containing this text fail (default: all).
 * - MOCK_AI_RETRY_AFTER_MS: the wait a 429 asks for (default 1000), sent as `retry-after-ms`
 *   and, rounded up to seconds, as `retry-after`. With MOCK_AI_FAIL_STATUS=429 and
 *   MOCK_AI_FAIL_FIRST=N: N rate-limit refusals per prompt.
 * - MOCK_AI_CALL_LOG: a file each AI request appends one line to ("<ms since epoch> <pid>"), so a
 *   test can count the calls of several worker processes.
 * - MOCK_AI_MALFORMED: the first N outline (quiz, flashcards) answers of each prompt are malformed
 *   (broken JSON, wrong shape); 'always' for every one.
 * - MOCK_MEDIA_FAIL: the image and video search APIs answer 503.
 * - MOCK_TRANSCRIPT_UNAVAILABLE: videos have no captions (as usual on servers).
 * - MOCK_PAYPAL_FAIL: 'create', 'get', 'cancel' or 'plan': PayPal answers 500 to that call
 *   ('plan': creating a billing plan).
 * - MOCK_RAZORPAY_FAIL: 'plan': Razorpay answers 500 to creating a plan.
 * - MOCK_WEBHOOK_FAIL: the simulated providers cannot reach the app: every webhook delivery
 *   attempt fails (and is retried later, with backoff, as real providers do).
 */
export interface MockKnobs {
  aiLatencyMs: number;
  aiStreamChunkMs: number;
  aiFailFirst: number;
  aiFailStatus: 429 | 500 | 529;
  aiFailMatch: string | undefined;
  aiRetryAfterMs: number;
  aiCallLog: string | undefined;
  aiMalformed: number;
  mediaFail: boolean;
  transcriptUnavailable: boolean;
  paypalFail: 'create' | 'get' | 'cancel' | 'plan' | undefined;
  razorpayFail: 'plan' | undefined;
  webhookFail: boolean;
  /** Changes whenever the knobs do, so per-prompt counters start afresh. */
  version: string;
}

function knobsFile(): string {
  return (
    process.env.MOCK_KNOBS_FILE ?? path.join(process.env.DATA_DIR ?? 'data', 'mock-knobs.json')
  );
}

function readOverrides(): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(knobsFile(), 'utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const truthy = (value: unknown) => ['true', '1', 'yes'].includes(String(value).toLowerCase());
const count = (value: unknown) => {
  if (String(value) === 'always') return Number.POSITIVE_INFINITY;
  const n = Number(value ?? 0);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
};

export function readKnobs(): MockKnobs {
  const overrides = readOverrides();
  const raw = (name: string): unknown => overrides[name] ?? process.env[name];
  const status = Number(raw('MOCK_AI_FAIL_STATUS') ?? 529);
  const match = raw('MOCK_AI_FAIL_MATCH');
  return {
    aiLatencyMs: count(raw('MOCK_AI_LATENCY_MS')),
    aiStreamChunkMs: count(raw('MOCK_AI_STREAM_CHUNK_MS') ?? 30),
    aiFailFirst: count(raw('MOCK_AI_FAIL_FIRST')),
    aiFailStatus: status === 429 || status === 500 ? status : 529,
    aiFailMatch: typeof match === 'string' && match.length > 0 ? match : undefined,
    aiRetryAfterMs: count(raw('MOCK_AI_RETRY_AFTER_MS') ?? 1000),
    aiCallLog: ((value) => (typeof value === 'string' && value.length > 0 ? value : undefined))(
      raw('MOCK_AI_CALL_LOG'),
    ),
    aiMalformed: count(raw('MOCK_AI_MALFORMED')),
    mediaFail: truthy(raw('MOCK_MEDIA_FAIL')),
    transcriptUnavailable: truthy(raw('MOCK_TRANSCRIPT_UNAVAILABLE')),
    paypalFail: ((value) =>
      value === 'create' || value === 'get' || value === 'cancel' || value === 'plan'
        ? value
        : undefined)(raw('MOCK_PAYPAL_FAIL')),
    razorpayFail: raw('MOCK_RAZORPAY_FAIL') === 'plan' ? 'plan' : undefined,
    webhookFail: truthy(raw('MOCK_WEBHOOK_FAIL')),
    version: JSON.stringify(overrides),
  };
}

/** Writes the override file a running worker reads (tests and benchmarks). */
export function writeKnobs(dataDir: string, knobs: Record<string, string | number | boolean>) {
  fs.writeFileSync(path.join(dataDir, 'mock-knobs.json'), JSON.stringify(knobs));
}

const counters = new Map<string, number>();

/** Counts calls per key (and knob version): 1 for the first call, 2 for the second... */
export function nextCall(kind: string, key: string, version: string): number {
  const id = `${version}\u0000${kind}\u0000${key}`;
  const n = (counters.get(id) ?? 0) + 1;
  counters.set(id, n);
  return n;
}

/** A small stable hash, so mock answers differ by topic but never between runs. */
export function stableHash(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}
