import type { AppLoadContext, ServerBuild } from '@remix-run/node';
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from 'express';
import type { JsonHandler } from '~/utils/json-route.server';

/**
 * The hot JSON GETs the build's entry lists in `directJsonRoutes`, answered by calling their
 * route's own handler (the same function its Remix loader runs: authorization, validation, the
 * service, the JSON), without the per-request work Remix does around a resource route: flattening
 * and ranking every route to match the path (a fifth of GET /api/courses in issue 16's profile),
 * a fetch Request with its abort signal, and a Response streamed in chunks though its length is
 * known (which also lets compression's threshold skip small bodies). See ADR 0023.
 */
export function directJsonRoutes(
  build: ServerBuild,
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext,
) {
  const routes = new Map(
    Object.entries(
      (build.entry.module as { directJsonRoutes?: Record<string, JsonHandler> }).directJsonRoutes ??
        {},
    ),
  );

  return async function direct(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    const handler =
      req.method === 'GET' || req.method === 'HEAD' ? routes.get(req.path) : undefined;
    if (!handler) return next();
    try {
      const request = {
        url: `${req.protocol}://${req.get('host')}${req.originalUrl}`,
        headers: { get: (name: string) => req.get(name) ?? null },
      };
      const answer = await handler(request, getLoadContext(req, res));
      let body: string;
      if (answer instanceof Response) {
        res.status(answer.status);
        answer.headers.forEach((value, name) => res.setHeader(name, value));
        body = await answer.text();
      } else {
        res.status(answer.status ?? 200);
        res.setHeader('Content-Type', 'application/json');
        for (const [name, value] of Object.entries(answer.headers ?? {}))
          res.setHeader(name, value);
        body = JSON.stringify(answer.body);
      }
      // A string goes out with the headers in one write.
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      next(error);
    }
  };
}
