import type { IncomingMessage, ServerResponse } from 'node:http';
import { isCrossSiteRequest } from './origin';

/**
 * CORS for the `/api` (ADR 0035): browser pages on the origins in API_ALLOWED_ORIGINS may call
 * it with an API token; every other origin stays refused as before. Never with cookies: a
 * cross-origin request to the API loses its Cookie header before any route reads it (so it is
 * authenticated by its `Authorization: Bearer` token alone), its answer sets no cookie, and no
 * answer says `Access-Control-Allow-Credentials`. The web server calls `check` before anything
 * else (preflights, the cross-site write refusal) and `applyToApiResponse` wherever it applies
 * its response policy (both its request paths).
 */

export const CROSS_SITE_MESSAGE = 'Cross-site requests are not allowed';

const ALLOWED_METHODS = 'GET, HEAD, POST';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
/** What a client may read of an answer besides the simple headers: paging and waits. */
const EXPOSED_HEADERS = [
  'Link, X-Next-Cursor, X-Total-Count, X-Page, X-Page-Size, Retry-After, WWW-Authenticate',
  'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed',
].join(', ');
/** How long a browser may reuse a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

export type CrossOriginCheck =
  | { kind: 'pass' }
  | { kind: 'preflight'; headers: Record<string, string> }
  | { kind: 'refuse'; message: string };

function isApiPath(path: string): boolean {
  return path.startsWith('/api/');
}

/** Adds names to a response's Vary header, keeping what is there. */
function addVary(res: ServerResponse, ...names: string[]) {
  const current = res.getHeader('Vary');
  const listed = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const missing = names.filter(
    (name) => !listed.some((have) => have.toLowerCase() === name.toLowerCase()),
  );
  if (missing.length > 0) res.setHeader('Vary', [...listed, ...missing].join(', '));
}

export function corsPolicy({
  allowedOrigins,
  appOrigin,
}: {
  allowedOrigins: readonly string[];
  appOrigin: string;
}) {
  const allowed = new Set(allowedOrigins);

  /**
   * Before anything else: an allowed origin's preflight is answered here (204), any other
   * origin's preflight to the API and every cross-site write not to the API from an allowed
   * origin is refused (403, as before); the rest passes.
   */
  function check(
    method: string,
    path: string,
    origin: string | undefined,
    ownOrigins: () => string[],
  ): CrossOriginCheck {
    if (!origin) return { kind: 'pass' };
    const api = isApiPath(path);
    const crossOrigin = !ownOrigins().includes(origin);
    if (api && crossOrigin && method.toUpperCase() === 'OPTIONS')
      return allowed.has(origin)
        ? {
            kind: 'preflight',
            headers: {
              'Access-Control-Allow-Origin': origin,
              'Access-Control-Allow-Methods': ALLOWED_METHODS,
              'Access-Control-Allow-Headers': ALLOWED_HEADERS,
              'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
              Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
            },
          }
        : { kind: 'refuse', message: CROSS_SITE_MESSAGE };
    if (api && crossOrigin && allowed.has(origin)) return { kind: 'pass' };
    return isCrossSiteRequest(method, origin, ownOrigins())
      ? { kind: 'refuse', message: CROSS_SITE_MESSAGE }
      : { kind: 'pass' };
  }

  /**
   * On every answer to an `/api` path: `Vary: Origin` (the answer depends on it), and for a
   * cross-origin request the request's cookies are dropped before any route reads them; an
   * allowed origin also gets `Access-Control-Allow-Origin` and the exposed headers. Returns true
   * for a cross-origin API request, whose answer must set no cookie either.
   */
  function applyToApiResponse(req: IncomingMessage, res: ServerResponse, secure: boolean) {
    const path = req.url ?? '/';
    if (!isApiPath(path)) return false;
    addVary(res, 'Origin');
    const origin = req.headers.origin;
    if (!origin) return false;
    const own = [appOrigin, `${secure ? 'https' : 'http'}://${req.headers.host ?? ''}`];
    if (own.includes(origin)) return false;
    delete req.headers.cookie;
    if (allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    return true;
  }

  return { check, applyToApiResponse };
}

export type CorsPolicy = ReturnType<typeof corsPolicy>;
