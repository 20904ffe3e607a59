import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import { createCourse, signUp, type Person } from '../support/person-http';
import { until } from '../support/processes';

/**
 * OpenTelemetry traces (ADR 0064): with OTEL_EXPORTER_OTLP_ENDPOINT set, one request that starts
 * lesson jobs is one trace, from its HTTP span through the enqueue to each job's run in the
 * worker, with the database queries and the AI call inside; unset, no process of the app loads
 * the SDK, an exporter, an instrumentation or their module hooks. The collector here is a stand-in that takes OTLP/HTTP JSON.
 */
const loadsRecorder = pathToFileURL(path.resolve('tests/support/opentelemetry-loads.mjs')).href;

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
}

/** OTLP's span kinds (JSON encodes them as numbers). */
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

function attributesOf(list: OtlpAttributes): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue),
    ]),
  );
}

/** A stand-in collector: POST /v1/traces in OTLP/HTTP JSON, kept as flat spans. */
async function collector() {
  const spans: Span[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      contentTypes.add(String(req.headers['content-type']));
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const payload = JSON.parse(body.toString()) as {
        resourceSpans: {
          resource: { attributes: OtlpAttributes };
          scopeSpans: {
            spans: (Omit<Span, 'attributes' | 'service'> & { attributes: OtlpAttributes })[];
          }[];
        }[];
      };
      for (const { resource, scopeSpans } of payload.resourceSpans) {
        const service = String(attributesOf(resource.attributes)['service.name']);
        for (const { spans: list } of scopeSpans)
          for (const span of list)
            spans.push({ ...span, service, attributes: attributesOf(span.attributes) });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function loadsFile() {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-otel-')), 'loads.txt');
}

function loaded(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** Generate on /topics, as its form posts it: the lesson jobs are enqueued by this request. */
async function generate(baseURL: string, person: Person, outlineId: string) {
  const response = await fetch(`${baseURL}/topics/${outlineId}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: baseURL,
      Cookie: person.cookie,
    },
    body: '',
    redirect: 'manual',
  });
  const courseId = /\/course\/([^/?#]+)/.exec(response.headers.get('location') ?? '')?.[1];
  if (!courseId) throw new Error(`Generate answered ${response.status}`);
  return { requestId: response.headers.get('x-request-id')!, courseId };
}

/** The course's lessons, once every one is written (what its page polls). */
async function lessonsWhenWritten(baseURL: string, person: Person, courseId: string) {
  return until(
    async () => {
      const response = await fetch(`${baseURL}/status/course/${courseId}`, {
        headers: { Cookie: person.cookie },
      });
      const { lessons } = (await response.json()) as { lessons: { state: string }[] };
      return lessons.length > 0 && lessons.every((lesson) => lesson.state === 'done')
        ? lessons.length
        : undefined;
    },
    120_000,
    250,
  );
}

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let app: RunningApp;
  let otlp: Awaited<ReturnType<typeof collector>>;
  const loads = loadsFile();

  beforeAll(async () => {
    otlp = await collector();
    app = await startApp({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      // Spans sent every 100 ms rather than every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      NODE_OPTIONS: `--import=${loadsRecorder}`,
      OPENTELEMETRY_LOADS_FILE: loads,
    });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await otlp?.close();
  });

  it("follows a request that starts lesson jobs into each job's run, its queries and its AI call, in one trace", async () => {
    const person = await signUp(app.baseURL);
    const outlineId = await createCourse(app.baseURL, person, 'Beekeeping');
    const { requestId, courseId } = await generate(app.baseURL, person, outlineId);

    const request = await until(
      () =>
        otlp.spans.find(
          (span) => span.kind === SERVER && span.attributes['coursegen.request_id'] === requestId,
        ),
      30_000,
      100,
    );
    // Named by the route's template, never the raw URL with the outline's id.
    expect(request.name).toBe('POST /topics/:outlineId');
    expect(request.service).toBe('coursegen-web');
    expect(request.attributes['http.route']).toBe('/topics/:outlineId');
    const trace = () => otlp.spans.filter((span) => span.traceId === request.traceId);
    const byId = (id: string | undefined) => trace().find((span) => span.spanId === id);
    /** Whether `span` descends from `ancestor` through the parent links. */
    const descends = (span: Span, ancestor: Span): boolean => {
      for (let at: Span | undefined = span; at; at = byId(at.parentSpanId))
        if (at.spanId === ancestor.spanId) return true;
      return false;
    };

    const lessons = await lessonsWhenWritten(app.baseURL, person, courseId);
    // Each lesson's run, ended (so sent) after everything inside it.
    const runs = await until(
      () => {
        const done = trace().filter(
          (span) => span.kind === CONSUMER && span.name === 'process lesson',
        );
        return done.length >= lessons ? done : undefined;
      },
      30_000,
      100,
    );
    if (process.env.TRACING_TEST_DUMP)
      fs.writeFileSync(process.env.TRACING_TEST_DUMP, JSON.stringify(otlp.spans, null, 1));
    const sends = trace().filter((span) => span.kind === PRODUCER && span.name === 'send lesson');
    expect(sends.length).toBeGreaterThan(0);
    for (const send of sends) expect(descends(send, request)).toBe(true);
    for (const run of runs) {
      expect(run.service).toBe('coursegen-worker');
      // The run's parent is the enqueue, in the web process: the context came in the job's data.
      expect(sends.map((send) => send.spanId)).toContain(run.parentSpanId);
      expect(run.attributes['messaging.destination.name']).toBe('lesson');
    }

    // The app's own span of each AI call (the Anthropic SDK adds one of its own inside it).
    const aiCalls = trace().filter((span) => span.attributes['coursegen.ai.purpose'] !== undefined);
    for (const run of runs) {
      const calls = aiCalls.filter((call) => descends(call, run));
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.kind).toBe(CLIENT);
        expect(call.name).toMatch(/^chat /);
        expect(call.attributes['gen_ai.provider.name']).toBe('anthropic');
      }
    }
    // A whole answer's tokens (the quizzes'); a streamed lesson's are not counted (ADR 0056).
    expect(aiCalls.some((call) => Number(call.attributes['gen_ai.usage.output_tokens']) > 0)).toBe(
      true,
    );

    // SQLite's spans are the app's own, PostgreSQL's the pg instrumentation's.
    const database = process.env.DATABASE_URL ? 'postgresql' : 'sqlite';
    const queries = trace().filter((span) => span.attributes['db.system.name'] === database);
    // The web process's (the course written) and the worker's (the lessons stored).
    expect(queries.some((query) => query.service === 'coursegen-web')).toBe(true);
    expect(queries.some((query) => runs.some((run) => descends(query, run)))).toBe(true);
    // Statements with placeholders: the member's words never ride in a span.
    for (const query of queries) expect(JSON.stringify(query)).not.toContain(person.email);

    const redis = trace().filter((span) => span.attributes['db.system.name'] === 'redis');
    expect(redis.some((command) => descends(command, sends[0]!))).toBe(true);

    expect(otlp.contentTypes).toEqual(new Set(['application/json']));
    // The recorder sees OpenTelemetry when it is loaded: its silence below means something.
    expect(loaded(loads).some((name) => name.includes('@opentelemetry/sdk-trace'))).toBe(true);
    expect(loaded(loads).some((name) => name.includes('/import-in-the-middle/'))).toBe(true);
  }, 180_000);
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('loads no OpenTelemetry SDK, exporter, instrumentation or module hook in the web process or the worker, as a course is written', async () => {
    const loads = loadsFile();
    const app = await startApp({
      NODE_OPTIONS: `--import=${loadsRecorder}`,
      OPENTELEMETRY_LOADS_FILE: loads,
      LOG_LEVEL: 'info',
    });
    try {
      const person = await signUp(app.baseURL);
      const outlineId = await createCourse(app.baseURL, person, 'Beekeeping');
      await generate(app.baseURL, person, outlineId);
      await until(() => app.output().includes('"lesson.stored"'), 60_000, 100);
    } finally {
      await app.stop();
    }
    // Both processes ran (their log lines) and stopped (the recorder writes at exit too).
    expect(app.output()).toContain('"web.ready"');
    expect(app.output()).toContain('"worker.stopped"');
    // The API alone is loaded, by prom-client and the Anthropic SDK whatever the setting: without
    // an SDK registered its tracer is a no-op. No SDK, exporter, instrumentation or module hook.
    const apiOnly = /\/node_modules\/@opentelemetry\/api\//;
    expect(loaded(loads).filter((name) => !apiOnly.test(name))).toEqual([]);
  }, 180_000);
});
