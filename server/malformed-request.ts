import type { IncomingMessage } from 'node:http';

export interface Refusal {
  status: 400 | 405;
  message: string;
  /** For a log line: what was wrong, never the raw input. */
  reason: 'host' | 'method' | 'path';
  allow?: string;
}

/** Methods a fetch Request cannot carry (Remix would fail on them with a 500). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * What no route can answer, refused before any is tried: a Host header that is not a host (Remix
 * builds every request's URL from it), a method fetch forbids, and a path whose %-escapes do not
 * decode (route matching decodes it). Each would otherwise reach Remix and end as a 500 with a
 * stack trace in the log.
 */
export function malformedRequest(req: IncomingMessage): Refusal | null {
  if (FORBIDDEN_METHODS.has(req.method ?? ''))
    return {
      status: 405,
      message: 'Method Not Allowed',
      reason: 'method',
      allow: 'GET, HEAD, POST, OPTIONS',
    };
  const host = req.headers.host;
  const forwardedHost = req.headers['x-forwarded-host'];
  // Remix reads the port of X-Forwarded-Host whether or not the proxy is trusted.
  const forwardedHosts = typeof forwardedHost === 'string' ? forwardedHost.split(',') : [];
  if ((host !== undefined && !isHost(host)) || !forwardedHosts.every((h) => isHost(h.trim())))
    return { status: 400, message: 'Bad Request: malformed Host header', reason: 'host' };
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  if (!decodes(query === -1 ? url : url.slice(0, query)))
    return { status: 400, message: 'Bad Request: malformed path', reason: 'path' };
  return null;
}

function isHost(host: string): boolean {
  try {
    const parsed = new URL(`http://${host}/`);
    // The whole header must be the host (and port): nothing the URL parser would cut off.
    return parsed.host === host.toLowerCase() || `${parsed.hostname}:80` === host.toLowerCase();
  } catch {
    return false;
  }
}

function decodes(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
