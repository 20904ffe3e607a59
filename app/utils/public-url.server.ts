import { env, type Env } from './env.server';
import type { RequestLike } from './json-route.server';

/**
 * Where a payment provider sends the member back (return and cancel URLs), ADR 0037: APP_URL
 * when it is set; otherwise the address the member is using, so that someone who opened the app
 * at http://127.0.0.1:3000 or a LAN name comes back there, still signed in, and not to the
 * default http://localhost:3000. Links in emails are not built here: they stay on APP_URL.
 */
export function providerReturnBase(
  request: RequestLike,
  config: Pick<Env, 'APP_URL' | 'appUrlConfigured' | 'TRUST_PROXY'> = env(),
): string {
  if (config.appUrlConfigured) return config.APP_URL;
  return requestOrigin(request, config.TRUST_PROXY) ?? config.APP_URL;
}

// A host as a browser sends it: a name or an IPv4/IPv6 address, and perhaps a port.
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin the client asked for, by the TRUST_PROXY rule the web server applies (Express's
 * `req.protocol` and `req.hostname`): a reverse proxy's X-Forwarded-Proto and X-Forwarded-Host
 * (their first values) count only when TRUST_PROXY is set; otherwise the Host header and the
 * connection's own scheme. Null for anything that is not a plain http(s) host.
 */
export function requestOrigin(request: RequestLike, trustProxy: boolean): string | null {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return null;
  }
  const forwarded = (name: string) =>
    trustProxy ? request.headers.get(name)?.split(',')[0]?.trim() || undefined : undefined;
  const scheme = forwarded('x-forwarded-proto') ?? url.protocol.slice(0, -1);
  const host = forwarded('x-forwarded-host') ?? request.headers.get('host') ?? url.host;
  if ((scheme !== 'http' && scheme !== 'https') || !HOST.test(host)) return null;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null; // a port beyond 65535, say
  }
}

/**
 * An address the site serves (`/images/demo/photo-1.png`, the demo's stock photos) made absolute
 * for an API client on another origin (ADR 0057): on APP_URL when it is set, else on the origin
 * the client called. Absolute addresses (a real image service's) stay as they are.
 */
export function absoluteUrl(url: string, request: RequestLike): string {
  if (!url.startsWith('/') || url.startsWith('//')) return url;
  return `${providerReturnBase(request)}${url}`;
}
