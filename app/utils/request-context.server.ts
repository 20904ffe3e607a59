import { randomUUID } from 'node:crypto';
import { contextSlot } from './async-context.server';

/**
 * The request (or the job it started) that the code running now works for, so that every log
 * line and every job it enqueues carries its id without passing it by hand (ADR 0056). The web
 * server opens it for each request (`X-Request-Id`), the worker for each job from its data.
 */
const context = contextSlot<string>('request id');

export function runWithRequestId<T>(requestId: string, run: () => T): T {
  return context.run(requestId, run);
}

/** The id of the request this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return context.get();
}

/** What a request id taken from outside may look like: a UUID, a trace id, a proxy's token. */
const WELL_FORMED = /^[A-Za-z0-9._:@+=-]{1,128}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

/** `proposed` (a trusted proxy's X-Request-Id) when well formed, else a new id. */
export function requestIdFrom(proposed: string | string[] | undefined): string {
  return isWellFormedRequestId(proposed) ? proposed : randomUUID();
}
