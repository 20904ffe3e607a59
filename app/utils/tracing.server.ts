import type * as OpenTelemetry from '@opentelemetry/api';

/**
 * The app's own spans (ADR 0064): SQLite queries, a job's enqueue and its run, AI calls. Traces
 * are off unless the process started the SDK (server/tracing.ts) and handed its API over with
 * `enableTracing`; until then every function here only runs what it is given, and nothing of
 * OpenTelemetry is loaded (the import above is a type).
 */
let otel: typeof OpenTelemetry | undefined;
let flush: (() => Promise<void>) | undefined;

/** The started SDK's API, and how to send what it holds before the process exits. */
export function enableTracing(tracing: {
  api: typeof OpenTelemetry;
  shutdown: () => Promise<void>;
}) {
  otel = tracing.api;
  flush = tracing.shutdown;
}

/** Sends the spans not yet sent (a stopping process), within `timeoutMs`; nothing when off. */
export async function flushTraces(timeoutMs = 2_000): Promise<void> {
  if (!flush) return;
  await Promise.race([
    flush().catch(() => undefined),
    new Promise((r) => setTimeout(r, timeoutMs).unref()),
  ]);
}

export interface SpanDescription {
  name: string;
  kind: 'client' | 'producer' | 'consumer' | 'internal';
  attributes?: OpenTelemetry.Attributes;
}

const KINDS = {
  client: 'CLIENT',
  producer: 'PRODUCER',
  consumer: 'CONSUMER',
  internal: 'INTERNAL',
} as const;

/**
 * Runs `run` (sync or async) in a span `describe` names, a child of the span under way; the
 * span ends when `run` returns or its promise settles, marked failed if it threw. `describe` is
 * called only when traces are on.
 */
export function traced<T>(describe: () => SpanDescription, run: () => T): T {
  if (!otel) return run();
  const { name, kind, attributes } = describe();
  const { SpanStatusCode } = otel;
  return otel.trace
    .getTracer('coursegen')
    .startActiveSpan(name, { kind: otel.SpanKind[KINDS[kind]], attributes }, (span) => {
      const fail = (error: unknown) => {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
      try {
        const result = run();
        if (result instanceof Promise)
          return result.then(
            (value: unknown) => {
              span.end();
              return value;
            },
            (error: unknown) => {
              fail(error);
              throw error;
            },
          ) as T;
        span.end();
        return result;
      } catch (error) {
        fail(error);
        throw error;
      }
    });
}

/** Sets attributes on the span under way (an AI call's tokens, known once it answered). */
export function noteOnSpan(attributes: OpenTelemetry.Attributes) {
  otel?.trace.getActiveSpan()?.setAttributes(attributes);
}

/** The W3C trace context of the span under way (`traceparent`), for a job's data; else none. */
export function traceContext(): { traceparent: string; tracestate?: string } | undefined {
  if (!otel) return undefined;
  const carrier: { traceparent?: string; tracestate?: string } = {};
  otel.propagation.inject(otel.context.active(), carrier);
  return carrier.traceparent
    ? {
        traceparent: carrier.traceparent,
        ...(carrier.tracestate && { tracestate: carrier.tracestate }),
      }
    : undefined;
}

/** Runs `run` as part of the trace whose context `carrier` holds (a job's data), if any. */
export function inTraceOf<T>(carrier: unknown, run: () => T): T {
  if (!otel || typeof carrier !== 'object' || carrier === null) return run();
  const { traceparent, tracestate } = carrier as Record<string, unknown>;
  if (typeof traceparent !== 'string') return run();
  const parent = otel.propagation.extract(otel.ROOT_CONTEXT, {
    traceparent,
    ...(typeof tracestate === 'string' && { tracestate }),
  });
  return otel.context.with(parent, run);
}
