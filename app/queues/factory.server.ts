import { Queue, type Job, type JobsOptions } from 'bullmq';
import type { z } from 'zod';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { producerRedis } from '~/utils/redis.server';

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

export interface DefinedQueue<S extends z.ZodType> {
  readonly name: string;
  readonly payload: S;
  /** The BullMQ queue, opened on first use. */
  queue(): Queue;
  add(data: z.infer<S>, options?: JobsOptions): Promise<Job>;
  addBulk(items: { data: z.infer<S>; options?: JobsOptions }[]): Promise<Job[]>;
  /** The job of a payload, by the queue's job id rule. */
  findJob(data: z.infer<S>): Promise<Job | undefined>;
  close(): Promise<void>;
}

const open = new Map<string, Queue>();

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
      existing.on('error', (error) => log.warn('queue.error', { queue: name, error }));
      open.set(name, existing);
    }
    return existing;
  }

  function job(data: unknown, options: JobsOptions = {}) {
    const parsed = payload.parse(data) as z.infer<S>;
    const jobId = definition.jobId?.(parsed);
    return {
      name: definition.jobName?.(parsed) ?? name,
      data: parsed,
      opts: jobId === undefined ? options : { jobId, ...options },
    };
  }

  return {
    name,
    payload,
    queue,
    async add(data, options) {
      const { name: jobName, data: parsed, opts } = job(data, options);
      return queue().add(jobName, parsed, opts);
    },
    async addBulk(items) {
      if (items.length === 0) return [];
      return queue().addBulk(items.map((item) => job(item.data, item.options)));
    },
    async findJob(data) {
      const jobId = definition.jobId?.(payload.parse(data) as z.infer<S>);
      return jobId === undefined ? undefined : queue().getJob(jobId);
    },
    async close() {
      const existing = open.get(name);
      open.delete(name);
      await existing?.close();
    },
  };
}

/** Closes every queue this process opened (the worker's and the web's shutdown). */
export async function closeAllQueues() {
  const queues = [...open.values()];
  open.clear();
  await Promise.allSettled(queues.map((queue) => queue.close()));
}
