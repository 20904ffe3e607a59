import type { JsonHandler } from './utils/json-route.server';
import type { enableTracing } from './utils/tracing.server';

/**
 * What the web server (server/) reports about its process, for /healthz: how often the start
 * had to bring a process back, and how the write turns fare (ADR 0026, 0028).
 */
export interface RuntimeReport {
  /** Restarts by the start since it began: web processes, the worker, the private Redis. */
  restarts: Record<string, number>;
  /** Writes under way and waiting in this web process, and those refused with 503 so far. */
  writes: { running: number; waiting: number; refused: number };
}

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Set by the web server (server/app.ts) for every request. */
    cspNonce?: string;
    /** The client's IP as Express resolves it (see TRUST_PROXY). */
    clientIp?: string;
    /** This web process's supervision and write-turn figures. */
    runtime?: RuntimeReport;
    /**
     * A page's form whose body was over its route's limit: the web server drops the body and
     * renders the page instead, which shows this message (root.tsx) with status 413.
     */
    refusedBody?: { message: string };
  }
}

/**
 * What a route module may export as `bodyLimit` (server-only, like `action`): the most bytes a
 * request body to it may have, and the words a refused page form shows. A route without one
 * takes at most 1 MB. The web server matches a request to its route as Remix does
 * (server/body-limit.ts), so every address the route answers on has its limit.
 */
export interface RouteBodyLimit {
  bytes: number;
  /** What the page says when its form is refused as too large; a generic line when absent. */
  tooLarge?: string;
}

/**
 * What the web server takes from the app's server build (`build.entry.module.webServer`), so
 * that every app module is loaded once per process, from the build (ADR 0028). The server
 * itself imports no app module.
 */
export interface WebServerHooks {
  /**
   * Run once by the web process before anything else: checks the environment and, in demo mode,
   * starts the vendor mocks. The build's modules do nothing when imported (ADR 0053).
   */
  start: () => void;
  config: {
    port: number;
    production: boolean;
    trustProxy: boolean;
    /** The public address members open; its origin counts as this site's own. */
    appUrl: string;
    /** Origins whose pages may call `/api` with a token (API_ALLOWED_ORIGINS, ADR 0035). */
    apiAllowedOrigins: string[];
    shutdownTimeoutMs: number;
    /** Work-arounds (or request ids and metrics) left out, for benchmarks only (BENCH_WITHOUT). */
    without: ('write-turns' | 'direct-json' | 'metrics')[];
  };
  log: Record<'info' | 'warn' | 'error', (event: string, fields?: Record<string, unknown>) => void>;
  /** Ends the event streams browsers reopen by themselves, so a stopping process can go. */
  closeReconnectableStreams: () => void;
  /**
   * The id of a request: `proposed` (a trusted proxy's X-Request-Id) when it is well formed, else
   * a new one (ADR 0056).
   */
  requestId: (proposed: string | string[] | undefined) => string;
  /**
   * Hands the tracing SDK the web process started (ADR 0064) to the app, for its own spans and
   * the trace context of the jobs it enqueues; never called when traces are off.
   */
  enableTracing: (tracing: Parameters<typeof enableTracing>[0]) => void;
  /** Runs `run` for the request `requestId`: the log lines and jobs of its work carry the id. */
  inRequest: <T>(requestId: string, run: () => T) => T;
  /** Prometheus metrics (ADR 0056): GET /metrics, and what the server records for them. */
  metrics: {
    /** Whether /metrics is served (METRICS_TOKEN is set). */
    served: () => boolean;
    /** Whether an `Authorization` header carries METRICS_TOKEN. */
    authorized: (authorization: string | undefined) => boolean;
    contentType: string;
    /** The node's metrics (every process the start keeps), else this process's. */
    text: () => Promise<string>;
    observeRequest: (method: string, route: string, status: number, seconds: number) => void;
    watchWriteTurns: (counts: () => RuntimeReport['writes']) => void;
  };
  /** The hottest JSON GETs, answered without Remix's request handling (ADR 0027). */
  directJsonRoutes: Record<string, JsonHandler>;
}
