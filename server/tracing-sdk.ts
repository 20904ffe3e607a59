import { register } from 'node:module';
import * as api from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  defaultResource,
  detectResources,
  envDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Tracing } from './tracing';

/** Paths whose requests make no trace: probes and scrapes, every few seconds. */
const UNTRACED_PATHS = new Set(['/healthz', '/metrics']);

/**
 * The OpenTelemetry SDK (ADR 0064), loaded only when traces are asked for (server/tracing.ts):
 * spans batched to the OTLP/HTTP endpoint of the standard `OTEL_*` variables, W3C trace context,
 * and the official instrumentations of incoming and outgoing HTTP, PostgreSQL (pg) and Redis
 * (ioredis). The app adds its own spans (SQLite queries, job enqueue and run, AI calls) through
 * `api`. The process's modules are ES modules: they are instrumented only through the loader
 * hook registered here, which sees the imports that come after it.
 */
export function startTracingSdk(service: string): Tracing {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const provider = new NodeTracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over the default name.
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': service }))
      .merge(detectResources({ detectors: [processDetector, envDetector] })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) =>
          UNTRACED_PATHS.has((request.url ?? '/').split('?', 1)[0]!),
      }),
      // Only inside a traced request or job: the worker's polling and the health probe's
      // queries would otherwise each be a trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  return { api, shutdown: () => provider.shutdown() };
}
