import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { createRequestHandler } from '@remix-run/express';
import { apiMethodGuard } from '~/utils/api-methods.server';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { checkBodySize } from '~/utils/body-limit.server';
import { closeReconnectableStreams } from '~/utils/event-stream.server';
import { isCrossSiteRequest } from '~/utils/origin.server';
import { applySecurityHeaders } from '~/utils/security-headers.server';
import { canKeepSecureCookies, withoutSecure } from '~/utils/cookies.server';
import { directJsonRoutes } from './lib/direct-json-routes';
import { publicFiles } from './lib/public-files';
import { writeTurns } from './lib/write-turns';

/**
 * Writes under way at once in a web process (the others wait their turn, reads never do), and
 * how long one may keep its turn (ADR 0026). Two keep the CPU busy, as a write mostly computes
 * (a Redis round trip is a fraction of a millisecond), and leave pages a share of each step.
 */
const WRITES_AT_ONCE = 2;
const WRITE_TURN_MS = 100;

/**
 * A web process: Express serving the production Remix build. `scripts/web.ts` runs
 * WEB_CONCURRENCY of them on one port (ADR 0016); started directly, this is a single one. Unlike
 * remix-serve it puts the security headers on every response, static files
 * and resource routes included, with a fresh CSP nonce per request.
 */
export async function startWebServer(buildDir = path.resolve('build')) {
  const { PORT, NODE_ENV, TRUST_PROXY, APP_URL } = env();
  const build = (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild;
  const app = express();
  app.disable('x-powered-by');
  // Behind a reverse proxy, req.ip is the client's only if we trust the proxy's header.
  app.set('trust proxy', TRUST_PROXY);
  // Below a kilobyte gzip saves less than it costs; bodies of unknown length (Remix's streams)
  // are compressed whatever their size.
  // A client that accepts no encoding (most API clients) costs compression nothing.
  const compress = compression({ threshold: 1024 });
  app.use((req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next()));
  const securityHeaders = securityHeadersFor(NODE_ENV === 'production');
  const appOrigin = new URL(APP_URL).origin;
  app.use((req, res, next) => {
    const nonce = newNonce();
    res.locals.cspNonce = nonce;
    for (const [name, value] of securityHeaders(nonce)) res.setHeader(name, value);
    // req.secure reads X-Forwarded-Proto only from a trusted proxy.
    if (req.secure)
      res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  });
  app.use(privateWhenSignedIn);
  app.use(cookiesForScheme);
  app.use((req, res, next) => {
    const origin = req.get('origin');
    const ownOrigins = () => [appOrigin, `${req.protocol}://${req.get('host')}`];
    if (origin && isCrossSiteRequest(req.method, origin, ownOrigins())) {
      res.status(403).json({ success: false, message: 'Cross-site requests are not allowed' });
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
  const getLoadContext = (req: Request, res: Response) => ({
    cspNonce: String(res.locals.cspNonce),
    // Resolved when a loader asks (rate limits), not for every request.
    get clientIp() {
      return req.ip ?? 'unknown';
    },
  });
  app.use(directJsonRoutes(build, getLoadContext));
  app.use(
    '/assets',
    publicFiles(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }),
  );
  app.use(publicFiles(path.join(buildDir, 'client'), { maxAge: '1h' }));
  app.all('*', createRequestHandler({ build, mode: NODE_ENV, getLoadContext }));
  const turns = writeTurns({ concurrent: WRITES_AT_ONCE, turnMs: WRITE_TURN_MS });
  const server = http.createServer((req, res) => turns.take(req, res, () => app(req, res)));
  return new Promise<http.Server>((resolve) => {
    server.listen(PORT, () => {
      log.info('web.ready', { port: PORT, pid: process.pid });
      resolve(server);
    });
  });
}

/** 16 random bytes for each CSP nonce, cut from a pool: one system call per 256 requests. */
let noncePool = Buffer.alloc(0);
function newNonce(): string {
  if (noncePool.length < 16) noncePool = randomBytes(4096);
  const nonce = noncePool.subarray(0, 16).toString('base64');
  noncePool = noncePool.subarray(16);
  return nonce;
}

/** The security headers, worked out once; only the CSP nonce changes per request. */
function securityHeadersFor(production: boolean) {
  const marker = 'NONCE-PLACEHOLDER';
  const headers = new Headers();
  applySecurityHeaders(headers, marker, production);
  const entries = [...headers.entries()];
  return (nonce: string) =>
    entries.map(([name, value]) => [name, value.replace(marker, nonce)] as const);
}

/**
 * What is made for a signed-in member (pages, JSON) must not be kept by a shared cache or on
 * the browser's disk. Routes that chose their own Cache-Control keep it.
 */
function privateWhenSignedIn(req: Request, res: Response, next: NextFunction) {
  if (!req.headers.cookie?.includes('__session=')) return next();
  beforeHeadersSent(res, () => {
    if (!res.getHeader('Cache-Control')) res.setHeader('Cache-Control', 'private, no-store');
  });
  next();
}

/**
 * Cookies follow the request's real scheme (X-Forwarded-Proto only from a trusted proxy): over
 * plain http to a host other than localhost a browser would drop a Secure cookie, and the member
 * could never stay signed in.
 */
function cookiesForScheme(req: Request, res: Response, next: NextFunction) {
  if (canKeepSecureCookies(req.secure, req.get('host'))) return next();
  beforeHeadersSent(res, () => {
    const cookies = res.getHeader('Set-Cookie');
    if (Array.isArray(cookies)) res.setHeader('Set-Cookie', cookies.map(withoutSecure));
    else if (typeof cookies === 'string') res.setHeader('Set-Cookie', withoutSecure(cookies));
  });
  next();
}

/** Runs `change` just before the status line and headers go out, whoever writes them. */
function beforeHeadersSent(res: Response, change: () => void) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    change();
    return writeHead.apply(this, args);
  } as Response['writeHead'];
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
