import type { ErrorCode } from './api-errors';

/**
 * What every use case (app/services) answers: a value, or a failure a person
 * can read with the HTTP status it maps to. Routes turn it into a page result
 * or the /api JSON; they never guess a status themselves.
 */
export type Failure = {
  ok: false;
  message: string;
  status: number;
  retryAfterSeconds?: number;
  /** The API's machine-readable code (app/domain/api-errors.ts); the status's own when absent. */
  code?: ErrorCode;
  /** The one field at fault, when there is one. */
  param?: string;
};
export type Result<T = undefined> = { ok: true; value: T } | Failure;

export function ok(): { ok: true; value: undefined };
export function ok<T>(value: T): { ok: true; value: T };
export function ok<T>(value?: T) {
  return { ok: true as const, value };
}

export function fail(message: string, status = 400, retryAfterSeconds?: number): Failure {
  return retryAfterSeconds === undefined
    ? { ok: false, message, status }
    : { ok: false, message, status, retryAfterSeconds };
}
