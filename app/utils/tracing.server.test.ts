import * as api from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { describe, expect, it, vi } from 'vitest';
import { enableTracing, inTraceOf, traceContext, traced } from './tracing.server';

describe('with traces off (no SDK handed over)', () => {
  it('runs the code as it is: no span described, no context to carry', async () => {
    const describeSpan = vi.fn(() => ({ name: 'never', kind: 'internal' as const }));
    expect(traced(describeSpan, () => 1)).toBe(1);
    await expect(traced(describeSpan, () => Promise.resolve(2))).resolves.toBe(2);
    expect(() =>
      traced(describeSpan, () => {
        throw new Error('as thrown');
      }),
    ).toThrow('as thrown');
    expect(describeSpan).not.toHaveBeenCalled();
    expect(traceContext()).toBeUndefined();
    expect(inTraceOf({ traceparent: '00-1-2-01' }, () => 'ran')).toBe('ran');
  });
});

describe('with traces on', () => {
  it('makes spans that end with their code, marked failed when it threw, and carries their context in a traceparent', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    provider.register();
    enableTracing({ api, shutdown: () => provider.shutdown() });

    const carried = await traced(
      () => ({ name: 'send lesson', kind: 'producer', attributes: { queue: 'lesson' } }),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return traceContext();
      },
    );
    expect(carried?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // Elsewhere (the worker), a span made in that context is the sender's child.
    await expect(
      inTraceOf({ ...carried }, () =>
        traced(
          () => ({ name: 'process lesson', kind: 'consumer' }),
          () => Promise.reject(new Error('the AI failed')),
        ),
      ),
    ).rejects.toThrow('the AI failed');
    expect(() =>
      traced(
        () => ({ name: 'SELECT', kind: 'client' }),
        () => {
          throw new Error('SQLITE_BUSY');
        },
      ),
    ).toThrow('SQLITE_BUSY');

    const [send, run, query] = exporter.getFinishedSpans();
    expect(send?.name).toBe('send lesson');
    expect(send?.kind).toBe(api.SpanKind.PRODUCER);
    expect(send?.attributes).toEqual({ queue: 'lesson' });
    expect(run?.name).toBe('process lesson');
    expect(run?.spanContext().traceId).toBe(send?.spanContext().traceId);
    expect(run?.parentSpanContext?.spanId).toBe(send?.spanContext().spanId);
    expect(run?.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(run?.events.map((event) => event.name)).toEqual(['exception']);
    expect(query?.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(query?.parentSpanContext).toBeUndefined();
    await provider.shutdown();
  });
});
