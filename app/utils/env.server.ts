import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the product reads, validated once at boot.
 * `.env.example` documents each of them; keep the two in step.
 */
const optionalText = z.string().trim().min(1).optional();

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * A comma (or space) separated list of web origins (`https://app.example.com`, a port when not
 * the scheme's default), each normalized as browsers send it. `*` and `null` are refused: the
 * list names the pages trusted to call the API with a member's token.
 */
const originList = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const origins: string[] = [];
    for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      const bare = url && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
      if (!url || !/^https?:$/.test(url.protocol) || !bare || url.username || url.password) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an origin (scheme://host[:port], without a path)`,
        });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return [...new Set(origins)];
  });
const nonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  APP_URL: z.url().optional(),
  TRUST_PROXY: flag,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * The bearer token Prometheus sends for GET /metrics (ADR 0056); unset, /metrics is not served.
   * Long enough not to be guessed.
   */
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  /**
   * Where OpenTelemetry traces go (OTLP over HTTP, e.g. `http://otel-collector:4318`; ADR 0064).
   * Read by the processes' start (server/tracing.ts) with the SDK's other `OTEL_*` variables;
   * checked here so that a malformed one stops the start. Unset, nothing of the SDK is loaded.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),

  /**
   * PostgreSQL instead of the SQLite file in DATA_DIR (ADR 0039): the way past one machine.
   * Unset, SQLite as always.
   */
  DATABASE_URL: z
    .url('must be a URL such as postgres://user:password@host:5432/coursegen')
    .refine(
      (value) => /^postgres(ql)?:\/\//.test(value),
      'must start with postgres:// or postgresql://',
    )
    .optional(),
  /** Connections each process may open to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** What `npm start` (and the Docker image) runs on this node: see "Running on several nodes". */
  PROCESSES: z.enum(['all', 'web', 'worker']).default('all'),

  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]+$/, 'letters, digits, colon, dash and underscore only')
    .optional(),

  SIGNUPS_PER_IP_PER_HOUR: positiveInt(20),
  /** Origins whose pages may call the /api with an API token (CORS, ADR 0035); none by default. */
  API_ALLOWED_ORIGINS: originList,

  /** Hosts a course export may fetch lesson images from (comma list); the image vendor's. */
  EXPORT_IMAGE_HOSTS: z
    .string()
    .default('images.unsplash.com,plus.unsplash.com')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  EXPORT_IMAGE_TIMEOUT_MS: positiveInt(3000),

  DEMO_MODE: flag,

  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_MODEL: z.string().min(1).default('claude-sonnet-4-6'),
  ANTHROPIC_BASE_URL: z.url().optional(),
  /** Which AI provider writes courses (ADR 0019). */
  AI_PROVIDER: z.enum(['anthropic', 'openai']).default('anthropic'),
  /** Models for outlines and for lessons, when they should differ from the provider's model. */
  AI_OUTLINE_MODEL: optionalText,
  AI_LESSON_MODEL: optionalText,
  OPENAI_API_KEY: optionalText,
  /** An OpenAI-compatible server (Ollama, vLLM, LM Studio...): set, it counts as configured. */
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  UNSPLASH_ACCESS_KEY: optionalText,
  YOUTUBE_API_KEY: optionalText,

  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  PAYPAL_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  PAYPAL_MONTHLY_PLAN_ID: optionalText,
  PAYPAL_YEARLY_PLAN_ID: optionalText,
  PAYPAL_WEBHOOK_ID: optionalText,
  RAZORPAY_KEY_ID: optionalText,
  RAZORPAY_KEY_SECRET: optionalText,
  RAZORPAY_MONTHLY_PLAN_ID: optionalText,
  RAZORPAY_YEARLY_PLAN_ID: optionalText,
  RAZORPAY_WEBHOOK_SECRET: optionalText,

  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  EMAIL_FROM: z.string().min(3).default('CourseGen <no-reply@coursegen.local>'),

  ADMIN_EMAIL: z.email().default('admin@coursegen.local'),
  ADMIN_PASSWORD: z.string().min(9, 'must be at least 9 characters').optional(),
  ADMIN_NAME: z.string().min(1).default('Admin'),

  COMPANY_NAME: z.string().min(1).default('CourseGen'),
  LOGO_URL: z.string().optional(),

  /**
   * How long a job's lock lasts without renewal. A worker renews it every quarter of this and
   * checks for jobs whose lock lapsed every fifth, so a crashed worker's jobs run again within
   * about 1.2x this (ADR 38); a live job loses its lock only if its worker cannot reach Redis for
   * three quarters of it.
   */
  JOB_LOCK_MS: positiveInt(10_000),
  /**
   * How long web and worker may take to finish what they are doing when asked to stop; below
   * Docker's 10 s grace, with room for the start to stop Redis after them (ADR 0029).
   */
  SHUTDOWN_TIMEOUT_MS: positiveInt(6_000),
  /** Always start a private redis-server under DATA_DIR (the Docker image sets it). */
  REDIS_PRIVATE: flag,
  /**
   * For benchmarks only: the web server runs without these work-arounds, to measure what each
   * still buys (bench/workarounds.ts, ADR 0030), or without request ids and metrics, to measure
   * what they cost (bench/metrics.ts, ADR 0056).
   */
  BENCH_WITHOUT: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['write-turns', 'direct-json', 'metrics']))),
  /** Web processes sharing PORT (ADR 0016); unset means one per core. */
  WEB_CONCURRENCY: z.coerce.number().int().positive().max(64).optional(),
  /** How often each worker gives due work whose job Redis lost a job again. */
  SWEEP_INTERVAL_MS: positiveInt(60_000),
  JOB_BACKOFF_BASE_MS: positiveInt(1_000),
  /**
   * Jobs one worker runs at once. A job spends nearly all its time waiting on the remote model,
   * so tens per worker cost little memory and CPU (ADR 0024); AI_REQUESTS_PER_MINUTE, not these,
   * is the brake on the provider.
   */
  LESSON_CONCURRENCY: positiveInt(50),
  OUTLINE_CONCURRENCY: positiveInt(50),
  /**
   * AI calls all workers and web processes together may start in any 60 s (ADR 0024): a shared
   * budget in Redis; a job finding it spent waits, delayed, without using a try. Unset: no limit.
   */
  AI_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().optional(),
  /** The window AI_REQUESTS_PER_MINUTE counts over; only tests shorten it. */
  AI_RATE_WINDOW_MS: positiveInt(60_000),
  /** How often a process logs that Redis is still away during an outage (ADR 38); tests shorten it. */
  REDIS_OUTAGE_SUMMARY_MS: positiveInt(60_000),
  /** The worker's scheduling priority (0-19, higher is nicer): bursts of jobs leave the web its CPU. */
  WORKER_NICENESS: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * Vendor calls a member may start per hour: 1 per outline and per /api AI or
   * media call, and one per lesson to generate when a course is created.
   */
  AI_REQUESTS_PER_HOUR: positiveInt(300),

  // Knobs of the vendor mocks (demo mode only); see mocks/knobs.ts.
  MOCK_AI_LATENCY_MS: nonNegativeInt(0),
  MOCK_AI_FAIL_FIRST: nonNegativeInt(0),
  MOCK_AI_FAIL_STATUS: z.coerce
    .number()
    .refine((n) => [429, 500, 529].includes(n), 'must be 429, 500 or 529')
    .default(529),
  MOCK_AI_FAIL_MATCH: optionalText,
  MOCK_AI_MALFORMED: z.union([z.literal('always'), z.coerce.number().int().min(0)]).default(0),
  MOCK_MEDIA_FAIL: flag,
  MOCK_TRANSCRIPT_UNAVAILABLE: flag,
  BILLING_RECONCILE_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  MOCK_PAYPAL_FAIL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['create', 'get', 'cancel', 'plan']).optional(),
  ),
  MOCK_RAZORPAY_FAIL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['plan']).optional(),
  ),
  MOCK_WEBHOOK_FAIL: flag,
});

type RawEnv = z.infer<typeof envSchema>;

export interface Env extends RawEnv {
  DATA_DIR: string;
  /**
   * This install's id (DATA_DIR/install-id; with DATABASE_URL, the database's `settings`): the
   * default prefix, and Redis's owner mark.
   */
  INSTALL_ID: string;
  /** `coursegen-<install id>` unless set: two installs on one Redis never share jobs. */
  REDIS_PREFIX: string;
  APP_URL: string;
  /**
   * Whether APP_URL was set. When it was not, payment providers send members back to the address
   * they are using (`returnBaseUrl`), and admins are told to set it.
   */
  appUrlConfigured: boolean;
  SESSION_SECRET: string;
  /** True when the product runs on simulated vendors (the AI provider unconfigured, or DEMO_MODE). */
  demo: boolean;
  /** Which vendors answer from the mocks in `mocks/` instead of the network. */
  mocked: {
    anthropic: boolean;
    openai: boolean;
    unsplash: boolean;
    youtube: boolean;
    paypal: boolean;
    razorpay: boolean;
  };
}

export class EnvError extends Error {
  override name = 'EnvError';
}

/** One line per bad variable, naming it, so a self-hoster sees at once what to fix. */
function describeEnvIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `Invalid environment variable ${issue.path.join('.')}: ${issue.message}`)
    .join('\n');
}

/** A value kept in a private file of the data folder, made on first use. */
function readOrCreateDataFile(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const value = make();
    // `wx` so two processes starting together agree on the first value written.
    try {
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, value, { flag: 'wx', mode: 0o600 });
      return value;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        return fs.readFileSync(file, 'utf8').trim();
      throw new EnvError(unwritableDataDir(dataDir, error));
    }
  }
}

/** What a self-hoster whose data folder is not theirs (a root-owned bind mount) should do. */
export function unwritableDataDir(dataDir: string, error: unknown): string {
  const uid = process.getuid?.() ?? 'this user';
  const reason = (error as NodeJS.ErrnoException).code ?? String(error);
  return (
    `DATA_DIR (${path.resolve(dataDir)}) cannot be written by uid ${uid} (${reason}). ` +
    `Make it writable (e.g. chown -R ${uid} ${path.resolve(dataDir)}), point DATA_DIR elsewhere, ` +
    'or with Docker use a named volume: -v coursegen-data:/data.'
  );
}

/** `NAME=` in a .env file means "not set", as most tools read it. */
function withoutEmptyValues(source: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(withoutEmptyValues(source));
  if (!result.success) throw new EnvError(describeEnvIssues(result.error));
  const raw = result.data;
  // A local OpenAI-compatible server needs no key: its address is its configuration.
  const openaiConfigured = Boolean(raw.OPENAI_API_KEY || raw.OPENAI_BASE_URL);
  const aiConfigured =
    raw.AI_PROVIDER === 'openai' ? openaiConfigured : Boolean(raw.ANTHROPIC_API_KEY);
  const demo = raw.DEMO_MODE || !aiConfigured;
  const dataDir = path.resolve(raw.DATA_DIR);
  const mock = (hasKeys: boolean) => demo && !hasKeys;
  // Several nodes share one PostgreSQL database and nothing on disk: a secret generated into
  // each node's DATA_DIR would sign cookies no other node accepts.
  if (raw.DATABASE_URL && !raw.SESSION_SECRET)
    throw new EnvError(
      'Invalid environment variable SESSION_SECRET: required when DATABASE_URL is set, so ' +
        'that every node signs cookies with the same secret. Set it to 32 or more random ' +
        'characters (e.g. the output of: openssl rand -hex 32).',
    );
  const environment = {
    ...raw,
    DATA_DIR: dataDir,
    APP_URL: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ''),
    appUrlConfigured: raw.APP_URL !== undefined,
    demo,
    mocked: {
      anthropic: mock(Boolean(raw.ANTHROPIC_API_KEY)),
      openai: mock(openaiConfigured),
      unsplash: mock(Boolean(raw.UNSPLASH_ACCESS_KEY)),
      youtube: mock(Boolean(raw.YOUTUBE_API_KEY)),
      paypal: mock(Boolean(raw.PAYPAL_CLIENT_ID && raw.PAYPAL_CLIENT_SECRET)),
      razorpay: mock(Boolean(raw.RAZORPAY_KEY_ID && raw.RAZORPAY_KEY_SECRET)),
    },
  };
  // The install id and the session secret are read, or made, at their first use, not here:
  // parsing the environment (importing the server build, a test reading a setting) writes
  // nothing to DATA_DIR (ADR 0053). The start reads both first (`readDataFiles`).
  // With PostgreSQL the install id lives in the database, read (asynchronously) by the start
  // before anything needs it; not known yet, whatever needs it says so. With SQLite, in DATA_DIR.
  const installId = once(() =>
    raw.DATABASE_URL
      ? (installIdFromTheStart(source) ?? missingInstallId())
      : readOrCreateDataFile(dataDir, 'install-id', () => randomBytes(4).toString('hex')),
  );
  const sessionSecret = once(
    () =>
      raw.SESSION_SECRET ??
      readOrCreateDataFile(dataDir, 'session-secret', () => randomBytes(32).toString('hex')),
  );
  return Object.defineProperties(environment, {
    INSTALL_ID: { enumerable: true, get: installId },
    REDIS_PREFIX: { enumerable: true, get: () => raw.REDIS_PREFIX ?? `coursegen-${installId()}` },
    SESSION_SECRET: { enumerable: true, get: sessionSecret },
  }) as Env;
}

/** A value computed at its first read and kept; a read that throws is tried again next time. */
function once(make: () => string): () => string {
  let value: string | undefined;
  return () => (value ??= make());
}

/**
 * Reads, making them if this is the first start, the values a SQLite install keeps in DATA_DIR
 * (its id and session secret). The start calls it first, so that a folder it cannot write is
 * said at once, plainly (an EnvError), rather than by the first request.
 */
export function readDataFiles(config: Env): void {
  if (config.DATABASE_URL) return;
  for (const value of [config.INSTALL_ID, config.SESSION_SECRET])
    if (!value) throw new EnvError('DATA_DIR holds an empty install-id or session-secret file.');
}

/**
 * With DATABASE_URL the install id is kept in the database; `ensureInstallId` (the start, or
 * `start:web` / `start:worker` on their own) reads it into COURSEGEN_INSTALL_ID, which the
 * processes it starts inherit. Not a setting: nothing else sets it.
 */
function installIdFromTheStart(source: Record<string, string | undefined>) {
  const id = source.COURSEGEN_INSTALL_ID;
  return id && /^[0-9a-f]{8,64}$/.test(id) ? id : undefined;
}

/**
 * Read before `ensureInstallId` ran: a process started some other way than by the start (or
 * `npm run start:web` / `start:worker`) against PostgreSQL.
 */
function missingInstallId(): never {
  throw new EnvError(
    'With DATABASE_URL the install id is kept in the database and read at start: run CourseGen ' +
      'with npm start (or npm run start:web / npm run start:worker), which read it first.',
  );
}

let cached: Env | undefined;

/** The validated environment of this process, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Parse again at next use: process.env changed (the install id was read from the database). */
export function reloadEnv() {
  cached = undefined;
}

/** For tests that change process.env between cases. */
export function resetEnvForTests() {
  reloadEnv();
}

/** The values the browser may see, sent through the root loader. */
export function publicEnv() {
  return { demo: env().demo };
}
