import { data } from '@remix-run/node';
import { databaseErrorCode, isDatabaseBusy } from './database.server';
import { recordDatabaseError } from './metrics.server';
import { log } from './logger.server';
import { rateLimitHeaders, withCountedLimits } from './rate-limit-headers.server';
import { errorBody, type ErrorCode } from '~/domain/api-errors';
import type { Failure } from '~/domain/result';

/** The product's message whenever the server fails. */
const INTERNAL_ERROR = 'Internal Server Error';

/** The database stayed locked past its busy timeout: try again, nothing is wrong. */
const BUSY_MESSAGE = 'The server is busy. Please try again in a moment.';
export const BUSY_HEADERS = { 'Retry-After': '1' };

/** What a page action answers when it stays on the page: the product's success flag and message. */
export type FormResult = { success: boolean; message: string };

export function formResult(
  status: number,
  message: string,
  success = false,
  headers?: HeadersInit,
) {
  return data<FormResult>({ success, message }, { status, headers });
}

/**
 * Runs a page action; an unexpected failure becomes the product's 'Internal
 * Server Error' message (status 500) instead of an error page. Thrown
 * responses (redirects) pass through.
 */
/** A failed request whose cause is the database is counted in the metrics (ADR 0056). */
export function countDatabaseError(error: unknown) {
  if (isDatabaseBusy(error)) recordDatabaseError('busy');
  else if (/^(SQLITE_|[0-9A-Z]{5}$)/.test(databaseErrorCode(error) ?? ''))
    recordDatabaseError('other');
}

export async function guardForm<T>(name: string, run: () => Promise<T>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) throw error;
    countDatabaseError(error);
    if (isDatabaseBusy(error)) {
      log.warn('action.busy', { action: name });
      return formResult(503, BUSY_MESSAGE, false, BUSY_HEADERS);
    }
    log.error('action.failed', { action: name, error });
    return formResult(500, INTERNAL_ERROR);
  }
}

/**
 * The same for `/api` routes: an unexpected failure is a JSON 500 with the message, never a
 * stack. Every answer, a thrown one too, carries the RateLimit-* headers of the tightest limit
 * the request counted (rate-limit-headers.server.ts).
 */
export async function guardApi(name: string, run: () => Promise<Response>): Promise<Response> {
  const { value: response, counted } = await withCountedLimits(() => answerOrFailure(name, run));
  try {
    for (const [header, value] of Object.entries(rateLimitHeaders(counted)))
      if (!response.headers.has(header)) response.headers.set(header, value);
  } catch {
    // A response with immutable headers (a redirect) goes out as it is.
  }
  return response;
}

async function answerOrFailure(name: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    countDatabaseError(error);
    if (isDatabaseBusy(error)) {
      log.warn('api.busy', { route: name });
      return apiError(503, BUSY_MESSAGE, { code: 'server_busy', headers: BUSY_HEADERS });
    }
    log.error('api.failed', { route: name, error });
    return apiError(500, INTERNAL_ERROR);
  }
}

/**
 * Every `/api` failure is made here (ADR 0057): `{ success: false, message, code, param? }` with
 * its status; the code is the status's own unless a more precise one is given.
 */
export function apiError(
  status: number,
  message: string,
  details: { code?: ErrorCode; param?: string; headers?: HeadersInit } = {},
): Response {
  return Response.json(errorBody(status, message, details), {
    status,
    headers: details.headers,
  });
}

/** A service failure as the API's JSON, 429s with Retry-After. */
export function failureJson(failure: Failure): Response {
  const headers: HeadersInit = failure.retryAfterSeconds
    ? { 'Retry-After': String(failure.retryAfterSeconds) }
    : {};
  return apiError(failure.status, failure.message, {
    code: failure.code,
    param: failure.param,
    headers,
  });
}

/** One response header list that can carry several cookies. */
export function withCookies(...cookies: (string | null | undefined)[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) if (cookie) headers.append('Set-Cookie', cookie);
  return headers;
}
