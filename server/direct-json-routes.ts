import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppLoadContext } from '@remix-run/node';
import type { WebServerHooks } from '../app/load-context';
import type { JsonHandler } from '../app/utils/json-route.server';
import { errorJson } from './json-error';

const INTERNAL_ERROR = 'Internal Server Error';

/** Readies a request the way Express's middleware would, then hands over its load context. */
export type Prepare = (
  req: IncomingMessage,
  res: ServerResponse,
  answer: (context: AppLoadContext) => void,
) => void;

/**
 * The hot JSON GETs the build's entry lists in its hooks' `directJsonRoutes`, answered by the http server
 * itself, before Express and Remix (ADRs 0023 and 0027): their route's own handler (the same
 * function its Remix loader runs: authorization, validation, the service, the JSON) after
 * `prepare`, which applies what Express's middleware applies to every answer (compression, the
 * response policy). A GET or HEAD passes the origin, body-size and method checks by definition.
 * Skipped: Express's request setup and middleware chain (a quarter of the CPU of GET
 * /api/courses), Remix's route matching, a fetch Request with its abort signal, and a Response
 * streamed in chunks though its length is known. Returns false for any other request.
 */
export function directJsonRoutes(
  { directJsonRoutes: routesByPath, log }: WebServerHooks,
  prepare: Prepare,
) {
  const routes = new Map(Object.entries(routesByPath));

  return function answerDirectly(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const handler = routes.get(query === -1 ? url : url.slice(0, query));
    if (!handler) return false;
    prepare(req, res, (context) => void answer(handler, req, res, context, log));
    return true;
  };
}

async function answer(
  handler: JsonHandler,
  req: IncomingMessage,
  res: ServerResponse,
  context: AppLoadContext,
  log: WebServerHooks['log'],
) {
  try {
    // Handlers read the path and query only (absolute links use APP_URL), so the origin is fixed
    // and a malformed Host cannot make the URL unparseable.
    const request = {
      url: `http://localhost${req.url}`,
      headers: { get: (name: string) => headerValue(req, name) },
    };
    const result = await handler(request, context);
    let body: string;
    if (result instanceof Response) {
      res.statusCode = result.status;
      result.headers.forEach((value, name) => res.setHeader(name, value));
      body = await result.text();
    } else {
      res.statusCode = result.status ?? 200;
      res.setHeader('Content-Type', 'application/json');
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      body = JSON.stringify(result.body);
    }
    send(req, res, body);
  } catch (error) {
    // The handler's own guard answers its failures; this is a fault of the plumbing around it.
    log.error('api.direct_failed', { path: req.url, error });
    if (res.headersSent) return void res.destroy();
    res.statusCode = 500;
    res.setHeader('Content-Type', 'application/json');
    send(req, res, errorJson(INTERNAL_ERROR, 'internal_error'));
  }
}

/** A string goes out with the headers in one write; its length lets compression skip it. */
function send(req: IncomingMessage, res: ServerResponse, body: string) {
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The header as fetch's `Headers.get` gives it: repeated values joined, null when absent. */
function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
