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
}

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
