import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';

/**
 * A node is one scrape target (ADR 0056): the start (or `npm run start:web`), which keeps the
 * node's processes, asks each of them for its metrics over their IPC channel and sums them with
 * prom-client's cluster aggregation; a web process asked for /metrics asks the start. The start
 * itself records nothing and serves nothing.
 */
type ProcessMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** The start asks a process for its own metrics... */
export const METRICS_COLLECT = 'coursegen:metrics:collect';
/** ...which answers them (app/utils/metrics.server.ts). */
export const METRICS_COLLECTED = 'coursegen:metrics:collected';
/** A web process asks the start for the node's... */
const NODE_METRICS_ASK = 'coursegen:metrics:node';
/** ...which answers them as Prometheus text. */
const NODE_METRICS_ANSWER = 'coursegen:metrics:node-answer';

/** A process that does not answer in this time is left out of the scrape. */
const COLLECT_TIMEOUT_MS = 3_000;

interface Message {
  type?: unknown;
  id?: unknown;
  metrics?: unknown;
  text?: unknown;
}

/**
 * The start's side: `onMessage` gets every message of the processes it keeps (the supervisor's
 * `onMessage`); `children` lists them now.
 */
export function nodeMetrics(children: () => ChildProcess[]) {
  const pending = new Map<string, (metrics: ProcessMetrics) => void>();

  function collect(child: ChildProcess): Promise<ProcessMetrics | undefined> {
    if (!child.connected) return Promise.resolve(undefined);
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve(undefined);
      }, COLLECT_TIMEOUT_MS);
      pending.set(id, (metrics) => {
        clearTimeout(timer);
        pending.delete(id);
        resolve(metrics);
      });
      child.send({ type: METRICS_COLLECT, id }, (error) => {
        if (error) pending.get(id)?.([]);
      });
    });
  }

  async function nodeText(): Promise<string> {
    const each = await Promise.all(children().map(collect));
    const answered = each.filter((metrics): metrics is ProcessMetrics => metrics !== undefined);
    return AggregatorRegistry.aggregate(answered).metrics();
  }

  return {
    onMessage(child: ChildProcess, raw: unknown) {
      const message = raw as Message | null;
      if (message?.type === METRICS_COLLECTED && typeof message.id === 'string')
        pending.get(message.id)?.(Array.isArray(message.metrics) ? message.metrics : []);
      else if (message?.type === NODE_METRICS_ASK && typeof message.id === 'string') {
        const { id } = message;
        void nodeText().then(
          (text) => child.connected && child.send({ type: NODE_METRICS_ANSWER, id, text }),
          () => child.connected && child.send({ type: NODE_METRICS_ANSWER, id }),
        );
      }
    },
  };
}

/**
 * A web process's side: the node's metrics from the start, or undefined when this process runs
 * without one (or it did not answer in time), in which case its own are the node's.
 */
export function askNodeMetrics(): Promise<string | undefined> {
  const send = process.send?.bind(process);
  if (!send || !process.connected) return Promise.resolve(undefined);
  const id = randomUUID();
  return new Promise((resolve) => {
    const done = (text: string | undefined) => {
      clearTimeout(timer);
      process.off('message', listen);
      resolve(text);
    };
    const listen = (raw: unknown) => {
      const message = raw as Message | null;
      if (message?.type === NODE_METRICS_ANSWER && message.id === id)
        done(typeof message.text === 'string' ? message.text : undefined);
    };
    const timer = setTimeout(() => done(undefined), COLLECT_TIMEOUT_MS + 1_000);
    process.on('message', listen);
    send({ type: NODE_METRICS_ASK, id }, (error: Error | null) => {
      if (error) done(undefined);
    });
  });
}
