import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import onHeaders from 'on-headers';
import { canKeepSecureCookies, withoutSecure } from './cookies';
import type { CorsPolicy } from './cors';
import { applySecurityHeaders } from './security-headers';

/** Express's compiled `trust proxy` setting: may the hop at `index` speak for the client? */
export type TrustProxy = (address: string, index: number) => boolean;

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * What every answer of a web process carries, whether Express and Remix make it or a direct JSON
 * route does (ADR 0027): the security headers with a fresh CSP nonce, HSTS over https, and for
 * a signed-in member `private, no-store` unless the route chose its own Cache-Control. Cookies
 * follow the request's real scheme: over plain http to a host other than localhost a browser
 * would drop a Secure cookie, and the member could never stay signed in. An `/api` answer
 * follows the CORS policy (ADR 0035). Returns the nonce.
 */
export function responsePolicy({
  production,
  trustProxy,
  cors,
}: {
  production: boolean;
  trustProxy: TrustProxy;
  cors: CorsPolicy;
}) {
  const securityHeaders = securityHeadersFor(production);
  return function applyResponsePolicy(req: IncomingMessage, res: ServerResponse): string {
    const nonce = newNonce();
    for (const [name, value] of securityHeaders(nonce)) res.setHeader(name, value);
    const secure = isSecureRequest(req, trustProxy);
    if (secure) res.setHeader('Strict-Transport-Security', HSTS);
    // CORS headers; a cross-origin API request loses its cookies here and may set none (ADR 35).
    const crossOrigin = cors.applyToApiResponse(req, res, secure);
    const signedIn =
      (req.headers.cookie?.includes('__session=') ?? false) || Boolean(req.headers.authorization);
    const keepSecureCookies = canKeepSecureCookies(secure, req.headers.host);
    if (signedIn || !keepSecureCookies || crossOrigin)
      onHeaders(res, () => {
        if (signedIn && !res.hasHeader('Cache-Control'))
          res.setHeader('Cache-Control', 'private, no-store');
        if (!keepSecureCookies) dropSecureFromCookies(res);
        if (crossOrigin) res.removeHeader('Set-Cookie');
      });
    return nonce;
  };
}

/**
 * Express's `req.secure` for any node request: https on the socket, or X-Forwarded-Proto when
 * the peer is a trusted proxy (its first value, as Express reads it).
 */
export function isSecureRequest(req: IncomingMessage, trustProxy: TrustProxy): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trustProxy(req.socket.remoteAddress ?? '', 0)) return false;
  const forwarded = req.headers['x-forwarded-proto'];
  return typeof forwarded === 'string' && forwarded.split(',')[0]!.trim() === 'https';
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

function dropSecureFromCookies(res: ServerResponse) {
  const cookies = res.getHeader('Set-Cookie');
  if (Array.isArray(cookies)) res.setHeader('Set-Cookie', cookies.map(withoutSecure));
  else if (typeof cookies === 'string') res.setHeader('Set-Cookie', withoutSecure(cookies));
}
