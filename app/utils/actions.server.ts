import type { z } from 'zod';
import type { Result } from '~/domain/result';
import { failureJson, formResult, guardApi, guardForm } from './responses.server';
import { parseWith, readBody } from './validation.server';

/**
 * One use case as a page action and as its /api twin: read the body, parse it
 * with the schema, run the use case, answer. The page and the API differ only
 * in what a success looks like, so each route passes just that.
 */
export interface UseCaseAction<S extends z.ZodType, T> {
  /** Names the action in logs. */
  name: string;
  schema: S;
  run: (input: z.infer<S>) => Promise<Result<T>>;
  /** Fields the route adds to the body before parsing (e.g. a token from the URL). */
  extra?: Record<string, unknown>;
}

async function parseAndRun<S extends z.ZodType, T>(request: Request, useCase: UseCaseAction<S, T>) {
  const body = { ...(await readBody(request)), ...useCase.extra };
  const parsed = parseWith(useCase.schema, body);
  const result = parsed.ok ? await useCase.run(parsed.value) : parsed;
  return { body, result };
}

/** For a page: a failure stays on the page as `{success: false, message}` with its status. */
export function formAction<S extends z.ZodType, T, R>(
  request: Request,
  useCase: UseCaseAction<S, T>,
  onSuccess: (value: T, body: Record<string, unknown>) => R | Promise<R>,
) {
  return guardForm(useCase.name, async () => {
    const { body, result } = await parseAndRun(request, useCase);
    if (!result.ok) return formResult(result.status, result.message);
    return onSuccess(result.value, body);
  });
}

/** For an /api route: a failure is the API's JSON `{success: false, message}` with its status. */
export function apiAction<S extends z.ZodType, T>(
  request: Request,
  useCase: UseCaseAction<S, T>,
  onSuccess: (value: T) => Response | Promise<Response>,
): Promise<Response> {
  return guardApi(useCase.name, async () => {
    const { result } = await parseAndRun(request, useCase);
    return result.ok ? onSuccess(result.value) : failureJson(result);
  });
}
