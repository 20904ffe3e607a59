import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/node';
import { guardApi } from './responses.server';

/** What a JSON GET reads of its request: enough for the session cookie and the query. */
export interface RequestLike {
  url: string;
  headers: Pick<Headers, 'get'>;
}

/** A JSON answer before it is a Response (status 200 unless said). */
interface JsonAnswer {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
}

export type JsonHandler = (
  request: RequestLike,
  context: AppLoadContext,
) => Promise<JsonAnswer | Response>;

/**
 * One `/api` GET written once and served two ways (ADR 0023): as the route's Remix `loader`, and
 * as `answer`, which the express server calls for the hottest paths (listed in entry.server's
 * `directJsonRoutes`) without building a fetch Request and Response or matching routes. Both run
 * the same handler under the same guard: failures are the API's JSON, never a stack.
 */
export function jsonRoute(name: string, handler: JsonHandler) {
  const answer = async (request: RequestLike, context: AppLoadContext) => {
    try {
      return await handler(request, context);
    } catch (error) {
      if (error instanceof Response) return error;
      return guardApi(name, () => Promise.reject(error));
    }
  };
  const loader = async ({ request, context }: LoaderFunctionArgs): Promise<Response> => {
    const result = await answer(request, context);
    return result instanceof Response
      ? result
      : Response.json(result.body, { status: result.status ?? 200, headers: result.headers });
  };
  return { loader, answer };
}
