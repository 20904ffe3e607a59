import type { z } from 'zod';

/**
 * What an operation of the `/api` contract is (ADR 0035): the route that answers it, the zod
 * schemas its handler parses requests with and types its answers against, and its place in
 * `/api/openapi.json`.
 */

type Audience = 'anyone' | 'member' | 'admin';

export interface HeaderDoc {
  description: string;
}

export interface ResponseDoc {
  description: string;
  schema: z.ZodType;
  contentType?: string;
  headers?: Record<string, HeaderDoc>;
}

export interface ApiOperation<R extends Record<number, ResponseDoc> = Record<number, ResponseDoc>> {
  method: 'GET' | 'POST';
  /** As OpenAPI writes it: a path parameter in braces (`/api/outline/{outlineId}`). */
  path: string;
  /** The route module under app/routes/api that answers it. */
  file: string;
  summary: string;
  description?: string;
  tag: string;
  audience: Audience;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** The path's parameters, one per `{name}` in `path`. */
  params?: z.ZodObject;
  responses: R;
  /**
   * The failures this operation answers beyond those every operation of its kind does (ADR 0057;
   * openapi.server.ts adds 400 for input, 401/403 for its audience, 413 for a body, 429 for
   * `limited`, 500 and 503): 403 for another member's row, 404, 409, 410, 502...
   */
  errors?: readonly ErrorStatus[];
  /** A creating POST that takes `Idempotency-Key` (app/utils/idempotency.server.ts). */
  idempotent?: boolean;
  /** Counted by a rate limit or the AI allowance: 429 with Retry-After, and RateLimit-* headers. */
  limited?: boolean;
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 502 | 503;

export const operation = <const O extends ApiOperation>(op: O): O => op;
export const json = <S extends z.ZodType>(
  description: string,
  schema: S,
  headers?: Record<string, HeaderDoc>,
) => ({ description, schema, headers });

/** The body an operation answers with `status`, as its schema has it. */
export type ApiBody<
  O extends ApiOperation,
  S extends keyof O['responses'],
> = O['responses'][S] extends ResponseDoc ? z.output<O['responses'][S]['schema']> : never;

/**
 * A route's answer, typed against its documented schema: `apiJson(API.signin, 200, {...})`.
 * Failures go through failureJson/badRequest (`ErrorBody`).
 */
export function apiJson<O extends ApiOperation, S extends keyof O['responses'] & number>(
  _operation: O,
  status: S,
  body: ApiBody<O, S>,
  init: { headers?: HeadersInit } = {},
): Response {
  return Response.json(body, { status, headers: init.headers });
}
