import { Queue, type Job, type JobsOptions } from 'bullmq';
import type { z } from 'zod';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { currentRequestId } from '~/utils/request-context.server';
import { traceContext, traced, type SpanDescription } from '~/utils/tracing.server';
import { noteRedisFailure, producerRedis, waitForRedis } from '~/utils/redis.server';

/**
 * Every queue is declared once with `defineQueue`: its name, the zod schema of
 * its payload, its default job options and the rule that names a job. The
 * producer, the `error` listener and `close()` come from here, so queues cannot
 * drift apart; `closeAllQueues()` closes whatever this process opened.
 */
export interface QueueDefinition<S extends z.ZodType> {
  name: string;
  payload: S;
  defaultJobOptions: JobsOptions;
  /** One job per piece of work: adding a payload whose job exists is a no-op. */
  jobId?: (data: z.infer<S>) => string;
  /** The job's name in BullMQ (shown by the queue monitor); the queue's name by default. */
  jobName?: (data: z.infer<S>) => string;
}

/** Work to give jobs: a list, or how to list it from the database (asked twice, see `ensure`). */
export type Owed<T> = T[] | (() => Promise<T[]>);

/** The same kind of `Owed`, each item changed by `change`. */
export function mapOwed<T, U>(owed: Owed<T>, change: (item: T) => U): Owed<U> {
  return typeof owed === 'function' ? async () => (await owed()).map(change) : owed.map(change);
}

export interface DefinedQueue<S extends z.ZodType> {
  readonly name: string;
  readonly payload: S;
  /** The BullMQ queue, opened on first use. */
  queue(): Queue;
  add(data: z.infer<S>, options?: JobsOptions): Promise<Job>;
  addBulk(items: { data: z.infer<S>; options?: JobsOptions }[]): Promise<Job[]>;
  /** The job of a payload, by the queue's job id rule. */
  findJob(data: z.infer<S>): Promise<Job | undefined>;
  /**
   * Gives every payload a live job: adds the missing ones and replaces those that finished
   * without doing the work (a database restored to before it). Returns how many it (re)created.
   * Needs a job id rule. Given the listing of owed work rather than a list (the sweeper), it
   * lists again once Redis has been read and re-creates only work still listed: a job seen
   * finished (or gone) had written its work to SQLite before it finished, so work done between
   * the first listing and the look in Redis is not taken for lost.
   */
  ensure(items: Owed<{ data: z.infer<S>; options?: JobsOptions }>): Promise<number>;
  /**
   * Removes the jobs of work that no longer exists (a deleted course). A job running now is
   * locked and stays: it finds its row gone and writes nothing. Returns how many it removed.
   */
  discard(items: z.infer<S>[]): Promise<number>;
  close(): Promise<void>;
}

const open = new Map<string, Queue>();

/** Redis is away: the work is saved in SQLite and the sweeper enqueues it when Redis is back. */
class JobServiceUnavailable extends Error {
  constructor(cause: unknown) {
    super('The job service (Redis) is not reachable', { cause });
    this.name = 'JobServiceUnavailable';
  }
}

/**
 * BullMQ waits for a connection that is not ready, so a request enqueueing during an outage
 * would hang until Redis returns; this bounds the wait for a connection still being made (a
 * known outage answers at once, see `waitForRedis`).
 */
const CONNECT_WAIT_MS = 1_500;

async function connected() {
  try {
    await waitForRedis(CONNECT_WAIT_MS);
  } catch (error) {
    throw new JobServiceUnavailable(error);
  }
}

/** A job in one of these states will still run (or is running); any other needs a new one. */
const LIVE_STATES = new Set<string>([
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
]);

const FINISHED_STATES = new Set<string>(['completed', 'failed']);

/** How many jobs the sweeper looks up at once. */
const ENSURE_BATCH = 200;

/** Every queue declared in this process, by name. */
const defined = new Map<string, DefinedQueue<z.ZodType>>();

export function defineQueue<S extends z.ZodType>(definition: QueueDefinition<S>): DefinedQueue<S> {
  const { name, payload } = definition;

  function queue(): Queue {
    let existing = open.get(name);
    if (!existing) {
      existing = new Queue(name, {
        connection: producerRedis(),
        prefix: env().REDIS_PREFIX,
        defaultJobOptions: definition.defaultJobOptions,
      });
      existing.on('error', (error) => {
        if (!noteRedisFailure(`queue:${name}`, error))
          log.warn('queue.error', { queue: name, error });
      });
      open.set(name, existing);
    }
    return existing;
  }

  function job(data: unknown, options: JobsOptions = {}) {
    const parsed = payload.parse(data) as z.infer<S>;
    const jobId = definition.jobId?.(parsed);
    // The request that asks for the work is named in its job, so the worker's log lines for it
    // carry the same id (ADR 0056), and with traces on its trace context goes along (ADR 0064):
    // the job's run is part of the request's trace. The payload schemas leave both out,
    // processors ignore them.
    const requestId = currentRequestId();
    const trace = traceContext();
    return {
      name: definition.jobName?.(parsed) ?? name,
      data:
        requestId || trace
          ? { ...(parsed as object), ...(requestId && { requestId }), ...trace }
          : parsed,
      opts: jobId === undefined ? options : { jobId, ...options },
    };
  }

  /** The span of an enqueue, whose context the job carries (OpenTelemetry's messaging names). */
  const sending = (): SpanDescription => ({
    name: `send ${name}`,
    kind: 'producer',
    attributes: {
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'send',
      'messaging.destination.name': name,
    },
  });

  const declared: DefinedQueue<S> = {
    name,
    payload,
    queue,
    add: (data, options) =>
      traced(sending, async () => {
        const { name: jobName, data: parsed, opts } = job(data, options);
        await connected();
        return queue().add(jobName, parsed, opts);
      }),
    async addBulk(items) {
      if (items.length === 0) return [];
      return traced(sending, async () => {
        await connected();
        return queue().addBulk(items.map((item) => job(item.data, item.options)));
      });
    },
    async findJob(data) {
      const jobId = definition.jobId?.(payload.parse(data) as z.infer<S>);
      return jobId === undefined ? undefined : queue().getJob(jobId);
    },
    async ensure(owed) {
      if (!definition.jobId) throw new Error(`Queue ${name} has no job id rule to ensure jobs by`);
      await connected();
      const listed = typeof owed === 'function' ? await owed() : owed;
      const jobs = listed.map((item) => job(item.data, item.options));
      const states: string[] = [];
      for (let start = 0; start < jobs.length; start += ENSURE_BATCH)
        states.push(
          ...(await Promise.all(
            jobs
              .slice(start, start + ENSURE_BATCH)
              .map((each) => queue().getJobState(String(each.opts.jobId))),
          )),
        );
      const stillOwed =
        typeof owed === 'function'
          ? new Set((await owed()).map((item) => job(item.data).opts.jobId))
          : undefined;
      const lost = jobs
        .map((each, index) => ({ each, state: states[index]! }))
        .filter(
          ({ each, state }) => !LIVE_STATES.has(state) && (stillOwed?.has(each.opts.jobId) ?? true),
        );
      for (let start = 0; start < lost.length; start += ENSURE_BATCH) {
        const batch = lost.slice(start, start + ENSURE_BATCH);
        await Promise.all(
          batch
            .filter(({ state }) => FINISHED_STATES.has(state))
            .map(({ each }) => queue().remove(String(each.opts.jobId))),
        );
        await queue().addBulk(batch.map(({ each }) => each));
      }
      return lost.length;
    },
    async discard(items) {
      if (!definition.jobId) throw new Error(`Queue ${name} has no job id rule to discard jobs by`);
      if (items.length === 0) return 0;
      await connected();
      const removed = await Promise.all(
        items.map((item) => queue().remove(String(job(item).opts.jobId))),
      );
      return removed.reduce((sum, count) => sum + count, 0);
    },
    async close() {
      const existing = open.get(name);
      open.delete(name);
      await existing?.close();
    },
  };
  defined.set(name, declared as unknown as DefinedQueue<z.ZodType>);
  return declared;
}

/** Reading the counts gives up after this, so a scrape during a Redis outage answers. */
const COUNTS_TIMEOUT_MS = 2_000;

/**
 * The jobs of each named queue by state, for the worker's metrics (ADR 0056): waiting (those
 * with a priority included), active, delayed, completed and failed (as many as BullMQ keeps).
 */
export async function jobCountsByQueue(
  names: string[],
): Promise<Record<string, Record<string, number>>> {
  await connected();
  const counts = await Promise.race([
    Promise.all(
      names.map(async (name) => {
        const queue = defined.get(name)?.queue();
        if (!queue) return [name, {}] as const;
        const c = await queue.getJobCounts(
          'waiting',
          'prioritized',
          'active',
          'delayed',
          'completed',
          'failed',
        );
        return [
          name,
          {
            waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
            active: c.active ?? 0,
            delayed: c.delayed ?? 0,
            completed: c.completed ?? 0,
            failed: c.failed ?? 0,
          },
        ] as const;
      }),
    ),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('job counts timed out')), COUNTS_TIMEOUT_MS).unref(),
    ),
  ]);
  return Object.fromEntries(counts);
}

/** Closes every queue this process opened (the worker's and the web's shutdown). */
export async function closeAllQueues() {
  const queues = [...open.values()];
  open.clear();
  await Promise.allSettled(queues.map((queue) => queue.close()));
}
