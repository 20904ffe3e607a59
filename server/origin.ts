const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True for a state-changing request sent by another site's page (CSRF).
 * Browsers send Origin on cross-site POSTs; API clients that send none are
 * allowed, since without a browser they cannot ride a member's cookie.
 */
export function isCrossSiteRequest(
  method: string,
  origin: string | undefined,
  ownOrigins: string[],
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase()) || !origin) return false;
  return !ownOrigins.includes(origin);
}

/** The site a browser says a request comes from when it sends no Origin (Fetch Metadata). */
const OTHER_SITES = new Set(['cross-site', 'same-site']);

/**
 * The origin a request is judged by (ADR 0057): its Origin header; without one (older browsers,
 * some privacy settings), `Sec-Fetch-Site` (`cross-site` and `same-site` read as the opaque
 * origin "null", which is never ours; `same-origin` and `none` as none), then the origin of its
 * Referer, as Django's and Rails' CSRF checks fall back. A request with none of them is an API
 * client without a browser, which cannot ride a member's cookie: undefined.
 */
export function requestOriginOf(headers: {
  origin?: string;
  'sec-fetch-site'?: string;
  referer?: string;
}): string | undefined {
  if (headers.origin) return headers.origin;
  const site = headers['sec-fetch-site']?.trim().toLowerCase();
  if (site) return OTHER_SITES.has(site) ? 'null' : undefined;
  if (!headers.referer) return undefined;
  try {
    const referer = new URL(headers.referer);
    return referer.protocol === 'http:' || referer.protocol === 'https:' ? referer.origin : 'null';
  } catch {
    return 'null';
  }
}
