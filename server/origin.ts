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
