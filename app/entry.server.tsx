import { PassThrough } from 'node:stream';
import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceProvider } from './components/nonce';
import type { WebServerHooks } from './load-context';
import { isDatabaseBusy } from './utils/database.server';
import { env } from './utils/env.server';
import { log } from './utils/logger.server';
import { requestIdFrom, runWithRequestId } from './utils/request-context.server';
import { enableTracing } from './utils/tracing.server';
import {
  carriesMetricsToken,
  METRICS_CONTENT_TYPE,
  observeRequest,
  registry,
  watchConnections,
  watchWriteTurns,
} from './utils/metrics.server';
import { askNodeMetrics } from './utils/node-metrics.server';
import { databasePoolUse } from './utils/database.server';
import { jobServiceUp } from './utils/redis.server';
import { BUSY_HEADERS, countDatabaseError } from './utils/responses.server';
import { clientHasCurrent, notModified, weakEtag } from './utils/conditional.server';
import { closeReconnectableStreams } from './utils/event-stream.server';
import { startVendorMocks } from './utils/mocks.server';
import { coursesApi } from './api/courses-api.server';

const ABORT_DELAY = 5_000;

export const streamTimeout = ABORT_DELAY;

/**
 * What the web server (server/) takes from this build, so that each app module is loaded once
 * per process (ADR 0028). `directJsonRoutes` are the hottest JSON reads, which the server
 * answers by calling their route's own handler without Remix's request handling around it
 * (ADR 0023, 0027). Parameterless GETs only.
 */
export const webServer: WebServerHooks = {
  // Called by the web server before it serves, not at import: importing the build does nothing.
  start() {
    // Fails the web process at boot, with one clear line, when the environment is malformed.
    env();
    startVendorMocks();
    // Read when Prometheus scrapes (ADR 0056).
    watchConnections({ databasePool: databasePoolUse, redisUp: jobServiceUp });
  },
  get config() {
    const {
      PORT,
      NODE_ENV,
      TRUST_PROXY,
      APP_URL,
      API_ALLOWED_ORIGINS,
      SHUTDOWN_TIMEOUT_MS,
      BENCH_WITHOUT,
    } = env();
    return {
      port: PORT,
      production: NODE_ENV === 'production',
      trustProxy: TRUST_PROXY,
      appUrl: APP_URL,
      apiAllowedOrigins: API_ALLOWED_ORIGINS,
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
      without: BENCH_WITHOUT,
    };
  },
  log,
  closeReconnectableStreams,
  requestId: requestIdFrom,
  inRequest: runWithRequestId,
  enableTracing,
  metrics: {
    served: () => env().METRICS_TOKEN !== undefined,
    authorized: (authorization) => carriesMetricsToken(authorization, env().METRICS_TOKEN ?? ''),
    contentType: METRICS_CONTENT_TYPE,
    text: async () => (await askNodeMetrics()) ?? (await registry.metrics()),
    observeRequest,
    watchWriteTurns,
  },
  directJsonRoutes: { '/api/courses': coursesApi.answer },
};

/**
 * Remix hands the document renderer errors stripped of their details in production, so
 * `handleError`, which sees them first, marks the requests that failed on a busy database.
 */
const busyRequests = new WeakSet<Request>();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A page whose loader or action found the database busy (SQLite locked past its busy timeout,
  // PostgreSQL without a free connection): a moment's overload.
  if (busyRequests.has(request)) {
    responseStatusCode = 503;
    for (const [name, value] of Object.entries(BUSY_HEADERS)) responseHeaders.set(name, value);
  }
  // A page that names its version (an ETag) covers the build too: a deploy changes its assets.
  const routeTag = responseHeaders.get('ETag');
  if (routeTag) {
    responseHeaders.set('ETag', weakEtag(routeTag, remixContext.manifest.version));
    if (responseStatusCode === 200 && clientHasCurrent(request, responseHeaders.get('ETag')))
      return notModified(responseHeaders);
  }
  // The web server sets the security headers (with this nonce) on every response.
  const nonce = loadContext.cspNonce ?? '';
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={ABORT_DELAY}
          nonce={nonce}
        />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error('render.error', { error, url: request.url });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  const where = { method: request.method, url: request.url };
  // A client's mistake (unknown path, wrong method) or a busy database: one short line.
  if (isRouteErrorResponse(error) && error.status < 500)
    return log.info('request.refused', { ...where, status: error.status });
  countDatabaseError(error);
  if (isDatabaseBusy(error)) {
    busyRequests.add(request);
    return log.warn('request.busy', where);
  }
  log.error('request.error', { error, ...where });
}
