import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { createRequestHandler } from '@remix-run/express';
import { apiMethodGuard } from '~/utils/api-methods.server';
import type { AppLoadContext, ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type Request, type Response } from 'express';
import proxyaddr from 'proxy-addr';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { checkBodySize } from '~/utils/body-limit.server';
import { closeReconnectableStreams } from '~/utils/event-stream.server';
import { corsFromEnv } from '~/utils/cors.server';
import { directJsonRoutes } from './lib/direct-json-routes';
import { publicFiles } from './lib/public-files';
import { responsePolicy, type TrustProxy } from './lib/response-policy';
import { writeTurns } from './lib/write-turns';

/**
 * Writes under way at once in a web process (the others wait their turn, reads never do), and
 * how long one may keep its turn (ADR 0026). Two keep the CPU busy, as a write mostly computes
 * (a Redis round trip is a fraction of a millisecond), and leave pages a share of each step.
 */
const WRITES_AT_ONCE = 2;
const WRITE_TURN_MS = 100;

/**
 * A web process: Express serving the production Remix build, and in front of it the few hot
 * JSON reads answered directly (ADR 0027). `scripts/web.ts` runs WEB_CONCURRENCY of them on one
 * port (ADR 0016); started directly, this is a single one. Unlike remix-serve it puts the
 * security headers on every response, static files and resource routes included, with a fresh
 * CSP nonce per request.
 */
export async function startWebServer(buildDir = path.resolve('build')) {
  const { PORT, NODE_ENV, TRUST_PROXY, APP_URL } = env();
  const build = (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild;
  const app = express();
  app.disable('x-powered-by');
  // Behind a reverse proxy, req.ip is the client's only if we trust the proxy's header.
  app.set('trust proxy', TRUST_PROXY);
  // Below a kilobyte gzip saves less than it costs; bodies of unknown length (Remix's streams)
  // are compressed whatever their size. A client that accepts no encoding (most API clients)
  // costs compression nothing.
  const compress = compression({ threshold: 1024 });
  const compressIfAccepted = (req: IncomingMessage, res: ServerResponse, next: () => void) =>
    req.headers['accept-encoding'] ? compress(req as Request, res as Response, next) : next();
  const trustProxy = app.get('trust proxy fn') as TrustProxy;
  const applyResponsePolicy = responsePolicy({ production: NODE_ENV === 'production', trustProxy });
  const loadContext = (req: IncomingMessage, cspNonce: string): AppLoadContext => ({
    cspNonce,
    // Resolved when a loader asks (rate limits), not for every request; Express's req.ip.
    get clientIp() {
      return proxyaddr(req, trustProxy);
    },
  });
  // A rule for every answer belongs in responsePolicy: the direct routes never reach this chain.
  app.use(compressIfAccepted);
  app.use((req, res, next) => {
    res.locals.cspNonce = applyResponsePolicy(req, res);
    next();
  });
  const appOrigin = new URL(APP_URL).origin;
  const cors = corsFromEnv();
  app.use((req, res, next) => {
    const origin = req.get('origin');
    const ownOrigins = () => [appOrigin, `${req.protocol}://${req.get('host')}`];
    const crossOrigin = cors.check(req.method, req.path, origin, ownOrigins);
    if (crossOrigin.kind === 'preflight')
      return void res.status(204).set(crossOrigin.headers).end();
    if (crossOrigin.kind === 'refuse') {
      res.status(403).json({ success: false, message: crossOrigin.message });
      return;
    }
    const size = checkBodySize(
      req.method,
      req.path,
      req.get('content-length'),
      req.get('transfer-encoding'),
    );
    if (!size.ok) {
      res
        .status(size.status)
        .set('Connection', 'close')
        .json({ success: false, message: size.message });
      return;
    }
    next();
  });
  const refuseApiMethod = apiMethodGuard(build);
  app.use((req, res, next) => {
    const refused = refuseApiMethod(req.method, req.path);
    if (!refused) return next();
    if (refused.allow) res.set('Allow', refused.allow);
    res.status(refused.status).json({ success: false, message: refused.message });
  });
  const getLoadContext = (req: Request, res: Response) =>
    loadContext(req, String(res.locals.cspNonce));
  app.use(
    '/assets',
    publicFiles(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }),
  );
  app.use(publicFiles(path.join(buildDir, 'client'), { maxAge: '1h' }));
  app.all('*', createRequestHandler({ build, mode: NODE_ENV, getLoadContext }));
  const turns = writeTurns({ concurrent: WRITES_AT_ONCE, turnMs: WRITE_TURN_MS });
  const answerDirectly = directJsonRoutes(build, (req, res, answer) =>
    compressIfAccepted(req, res, () => answer(loadContext(req, applyResponsePolicy(req, res)))),
  );
  const server = http.createServer((req, res) => {
    if (!answerDirectly(req, res)) turns.take(req, res, () => app(req, res));
  });
  return new Promise<http.Server>((resolve) => {
    server.listen(PORT, () => {
      log.info('web.ready', { port: PORT, pid: process.pid });
      resolve(server);
    });
  });
}

const isEntryPoint = process.argv[1]?.endsWith('scripts/web-server.ts');
if (isEntryPoint) {
  const started = startWebServer();
  let stopping = false;
  // `on`, not `once`: the same signal may arrive twice (process group and `npm start`).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void started.then((server) => {
        // Stop accepting, let requests in flight finish, then go; idle keep-alive sockets would
        // hold close() open, and SHUTDOWN_TIMEOUT_MS bounds the rest.
        server.close(() => process.exit(0));
        server.closeIdleConnections();
        closeReconnectableStreams();
        setTimeout(() => process.exit(0), env().SHUTDOWN_TIMEOUT_MS).unref();
      });
    });
  }
  started.catch((error: unknown) => {
    log.error('web.start_failed', { error });
    process.exit(1);
  });
}
