import { createHash } from 'node:crypto';

/**
 * Conditional GETs for pages that set an ETag (ADR 0021). The ETag is weak: a page is the same
 * content for the same version, but its bytes differ per response (the CSP nonce).
 */
export function weakEtag(...parts: (string | number | boolean | null | undefined)[]): string {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  return `W/"${digest.slice(0, 27)}"`;
}

/** Strips the weak prefix: If-None-Match compares weakly (RFC 9110, 13.1.2). */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** True when the client's copy (If-None-Match) is the one this response would send. */
export function clientHasCurrent(request: Request, etag: string | null): boolean {
  if (!etag || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const header = request.headers.get('If-None-Match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Headers a 304 keeps (RFC 9110, 15.4.5): the validators and the caching rules. */
const NOT_MODIFIED_HEADERS = ['ETag', 'Cache-Control', 'Vary', 'Expires', 'Content-Location'];

/** The 304 for a page whose loader ran and found the client's copy current. */
export function notModified(headers: Headers): Response {
  const kept = new Headers();
  for (const name of NOT_MODIFIED_HEADERS) {
    const value = headers.get(name);
    if (value) kept.set(name, value);
  }
  return new Response(null, { status: 304, headers: kept });
}
