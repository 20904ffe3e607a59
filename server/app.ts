import http, { type IncomingMessage, type ServerResponse } from 'node:http';
// Exported by the adapter's module, not its index: the request half of the adapter, as it is.
import { createRemixRequest } from '@remix-run/express/dist/server.js';
import { createRequestHandler, type AppLoadContext, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import proxyaddr from 'proxy-addr';
import type { RuntimeReport, WebServerHooks } from '../app/load-context';
import { apiMethodGuard } from './api-methods';
import { answeringRoutes, carriesBody, checkBodySize, isPageFormPost } from './body-limit';
import { directJsonRoutes } from './direct-json-routes';
import { corsPolicy } from './cors';
import { malformedRequest } from './malformed-request';
import { metricsEndpoint } from './metrics-endpoint';
import { routeTemplates } from './route-template';
import { requestOriginOf } from './origin';
import { responsePolicy, type TrustProxy } from './response-policy';
import { sendWithBackpressure } from './send-response';
import { writeTurns } from './write-turns';
import { errorJson } from './json-error';
import type { Tracing } from './tracing';

/** A refused body up to this size is read and dropped, so that its sender reads the refusal. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

export interface WebServerOptions {
  /** The Remix server build: the compiled one in production, Vite's current one in development. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Serves the browser's files: the build's client folder, or Vite's dev middleware. */
  serveClientFiles: (app: Express) => void;
  /** Restart counts the start reports to this process (empty when run alone). */
  restarts: () => Record<string, number>;
  /** The tracing SDK, started before this was imported (ADR 0064); undefined when traces are off. */
  tracing?: Tracing;
}

/**
 * One web process's server, the same in development and production (ADR 0028): Express serving
 * the Remix build, and in front of it the checks and rules every answer shares. It puts the
 * security headers on every response, static files and resource routes included, with a fresh
 * CSP nonce per request. Everything it needs of the app comes from the build's `webServer`
 * hooks, so no app module is loaded twice.
 */
export async function createWebServer(options: WebServerOptions) {
  const hooks = webServerHooks(
    typeof options.build === 'function' ? await options.build() : options.build,
  );
  if (options.tracing) hooks.enableTracing(options.tracing);
  hooks.start();
  const {
    production,
    trustProxy: trustProxySetting,
    appUrl,
    apiAllowedOrigins,
    without,
  } = hooks.config;

  const app = express();
  app.disable('x-powered-by');
  // Behind a reverse proxy, req.ip is the client's only if we trust the proxy's header.
  app.set('trust proxy', trustProxySetting);
  // Below a kilobyte gzip saves less than it costs; bodies of unknown length (Remix's streams)
  // are compressed whatever their size. A client that accepts no encoding (most API clients)
  // costs compression nothing.
  const compress = compression({ threshold: 1024 });
  const compressIfAccepted = (req: IncomingMessage, res: ServerResponse, next: () => void) =>
    req.headers['accept-encoding'] ? compress(req as Request, res as Response, next) : next();
  const trustProxy = app.get('trust proxy fn') as TrustProxy;
  const appOrigin = new URL(appUrl).origin;
  const cors = corsPolicy({ allowedOrigins: apiAllowedOrigins, appOrigin });
  const applyResponsePolicy = responsePolicy({ production, trustProxy, cors });
  const turns = writeTurns({ log: hooks.log });
  const runtime = (): RuntimeReport => ({ restarts: options.restarts(), writes: turns.counts() });
  const loadContext = (
    req: IncomingMessage,
    cspNonce: string,
    refusedBody?: AppLoadContext['refusedBody'],
  ): AppLoadContext => ({
    cspNonce,
    refusedBody,
    // Resolved when a loader asks (rate limits), not for every request; Express's req.ip.
    get clientIp() {
      return proxyaddr(req, trustProxy);
    },
    get runtime() {
      return runtime();
    },
  });

  // A rule for every answer belongs in responsePolicy: the direct routes never reach this chain.
  app.use(compressIfAccepted);
  app.use((req, res, next) => {
    res.locals.cspNonce = applyResponsePolicy(req, res);
    next();
  });
  app.use((req, res, next) => {
    const origin = requestOriginOf({
      origin: req.get('origin'),
      'sec-fetch-site': req.get('sec-fetch-site'),
      referer: req.get('referer'),
    });
    const ownOrigins = () => [appOrigin, `${req.protocol}://${req.get('host')}`];
    const crossOrigin = cors.check(req.method, req.path, origin, ownOrigins);
    if (crossOrigin.kind === 'preflight')
      return void res.status(204).set(crossOrigin.headers).end();
    if (crossOrigin.kind === 'refuse') {
      res.status(403).type('json').send(errorJson(crossOrigin.message, 'cross_site_request'));
      return;
    }
    next();
  });
  const routesOf = perBuild((build) => answeringRoutes(build));
  app.use(
    withBuild(options.build, (build, req, res, next) => {
      if (!carriesBody(req.method)) return next();
      const route = routesOf(build)(req.path);
      const size = checkBodySize(
        req.method,
        route.limit,
        req.get('content-length'),
        req.get('transfer-encoding'),
      );
      if (size.ok) return next();
      // A client still sending the body sees the answer only if the body is taken: closing
      // under it resets the connection (EPIPE) before it reads anything. A body up to
      // DRAIN_LIMIT is read and dropped, the connection kept; a larger one is cut off.
      const declared = Number(req.get('content-length'));
      if (Number.isFinite(declared) && declared <= DRAIN_LIMIT) req.resume();
      else res.set('Connection', 'close');
      if (size.status === 413 && isPageFormPost(req.method, req.path, route)) {
        // The page comes back with the message in it, as its own refusals do, instead of JSON
        // in place of the page; its action never runs, since the body was not read.
        res.locals.refusedBody = { message: size.message };
        req.method = 'GET';
        return next();
      }
      res
        .status(size.status)
        .type('json')
        .send(errorJson(size.message, size.status === 413 ? 'body_too_large' : 'invalid_request'));
    }),
  );
  const guards = perBuild((build) => apiMethodGuard(build));
  app.use(
    withBuild(options.build, (build, req, res, next) => {
      const refused = guards(build)(req.method, req.path);
      if (!refused) return next();
      if (refused.allow) res.set('Allow', refused.allow);
      res
        .status(refused.status)
        .type('json')
        .send(
          errorJson(refused.message, refused.status === 404 ? 'not_found' : 'method_not_allowed'),
        );
    }),
  );
  options.serveClientFiles(app);
  // Remix's express adapter, but with a writer that waits for the socket (send-response.ts).
  const handleRemix = createRequestHandler(
    options.build,
    production ? 'production' : 'development',
  );
  app.all('*', (req: Request, res: Response, next) => {
    const context = loadContext(
      req,
      String(res.locals.cspNonce),
      res.locals.refusedBody as AppLoadContext['refusedBody'],
    );
    handleRemix(createRemixRequest(req, res), context)
      .then((response) => sendWithBackpressure(res, response))
      .catch(next);
  });

  // Development answers these paths through Remix, which runs the same handlers: Vite's build
  // changes as files are edited, and the direct path exists only to save a production request.
  const answerDirectly =
    typeof options.build !== 'function' && !without.includes('direct-json')
      ? directJsonRoutes(hooks, (req, res, answer) =>
          compressIfAccepted(req, res, () =>
            answer(loadContext(req, applyResponsePolicy(req, res))),
          ),
        )
      : null;

  // Every request has an id (ADR 0056): the proxy's X-Request-Id when TRUST_PROXY says its
  // headers are to be believed, else a new one. It is answered in the response header, and the
  // app's log lines and the jobs it enqueues carry it (the hooks' request context).
  const requestIdOf = (req: IncomingMessage) =>
    hooks.requestId(trustProxySetting ? req.headers['x-request-id'] : undefined);
  // Every answered request is counted by its route's template, once it is sent (ADR 0056).
  // Development's build changes as files are edited: its requests are counted under one label.
  const templateOf =
    typeof options.build === 'function' ? () => 'development' : routeTemplates(options.build);
  const directPaths = new Set(Object.keys(hooks.directJsonRoutes));
  const routeLabel = (req: IncomingMessage) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    return directPaths.has(pathname) || pathname === '/metrics' ? pathname : templateOf(pathname);
  };
  hooks.metrics.watchWriteTurns(() => turns.counts());
  const answerMetrics = metricsEndpoint(hooks.metrics, hooks.log);
  const malformed = new WeakSet<IncomingMessage>();
  // Benchmarks only (bench/metrics.ts): no request ids, nothing counted.
  const unobserved = without.includes('metrics');

  // With traces on, the HTTP instrumentation's span for the request (ADR 0064) is named by the
  // route's template too, as Jaeger or Tempo list operations, and carries the request id.
  const traces = options.tracing?.api.trace;
  const nameRequestSpan = traces
    ? (req: IncomingMessage, requestId: string) => {
        const span = traces.getActiveSpan();
        if (!span) return;
        let route: string;
        try {
          route = routeLabel(req);
        } catch {
          route = 'malformed';
        }
        span.updateName(`${req.method ?? 'GET'} ${route}`);
        span.setAttributes({ 'http.route': route, 'coursegen.request_id': requestId });
      }
    : undefined;

  const server = http.createServer((req, res) => {
    if (unobserved) return serve(req, res, '');
    const started = performance.now();
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    nameRequestSpan?.(req, requestId);
    res.once('finish', () =>
      hooks.metrics.observeRequest(
        req.method ?? 'GET',
        malformed.has(req) ? 'malformed' : routeLabel(req),
        res.statusCode,
        (performance.now() - started) / 1000,
      ),
    );
    hooks.inRequest(requestId, () => serve(req, res, requestId));
  });

  function serve(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const refusal = malformedRequest(req);
    if (refusal) {
      malformed.add(req);
      hooks.log.info('request.malformed', { method: req.method, reason: refusal.reason });
      res.writeHead(refusal.status, {
        'Content-Type': 'application/json',
        ...(refusal.allow ? { Allow: refusal.allow } : {}),
        Connection: 'close',
      });
      res.end(
        errorJson(
          refusal.message,
          refusal.status === 405 ? 'method_not_allowed' : 'invalid_request',
        ),
      );
      return;
    }
    if (answerMetrics(req, res)) return;
    if (answerDirectly?.(req, res)) return;
    if (without.includes('write-turns')) return app(req, res);
    // A write that waits for its turn is let in from another request's end: back in its own.
    turns.take(req, res, () => hooks.inRequest(requestId, () => app(req, res)));
  }
  return { server, hooks, turns };
}

/** The app's hooks for its web server, from the build's entry module (app/entry.server.tsx). */
function webServerHooks(build: ServerBuild): WebServerHooks {
  const hooks = (build.entry.module as { webServer?: WebServerHooks }).webServer;
  if (!hooks) throw new Error('The server build does not export webServer from its entry');
  return hooks;
}

/**
 * A middleware that needs the build: at once in production, where it is fixed; in development
 * after Vite has it (it changes as files are edited).
 */
function withBuild(
  build: WebServerOptions['build'],
  use: (build: ServerBuild, req: Request, res: Response, next: (error?: unknown) => void) => void,
): RequestHandler {
  if (typeof build !== 'function') return (req, res, next) => use(build, req, res, next);
  return (req, res, next) => void build().then((current) => use(current, req, res, next), next);
}

/** Worked out once for each build (one in production; each of Vite's in development). */
function perBuild<T>(make: (build: ServerBuild) => T): (build: ServerBuild) => T {
  const made = new WeakMap<ServerBuild, T>();
  return (build) => {
    let value = made.get(build);
    if (value === undefined) {
      value = make(build);
      made.set(build, value);
    }
    return value;
  };
}
