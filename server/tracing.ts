import type * as OpenTelemetry from '@opentelemetry/api';

/** What a process gets from a started tracing SDK (server/tracing-sdk.ts). */
export interface Tracing {
  /** `@opentelemetry/api`, loaded with the SDK: the app's spans go through it. */
  api: typeof OpenTelemetry;
  /** Sends the spans still held, then stops: before the process exits. */
  shutdown: () => Promise<void>;
}

/**
 * OpenTelemetry traces are optional and off by default (ADR 0064): only when the operator names
 * a collector (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces-only `…_TRACES_ENDPOINT`) is the SDK
 * loaded, by a dynamic import, so a process without it loads no `@opentelemetry` module at all.
 * A process calls this before it imports what is instrumented (HTTP, pg, ioredis).
 */
export async function startTracing(service: string): Promise<Tracing | undefined> {
  const { OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT } = process.env;
  if (!OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && !OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim())
    return undefined;
  const { startTracingSdk } = await import('./tracing-sdk');
  return startTracingSdk(service);
}
