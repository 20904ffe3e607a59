const BASE = 'http://same-site.invalid';

/**
 * Only same-site paths: an open redirect would let a link send members
 * anywhere. The target is resolved the way a browser would (which drops tabs
 * and newlines, reads `\` as `/` and resolves dot segments), and kept only if it
 * stays on this site.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (typeof to !== 'string' || !to.startsWith('/')) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // Dot segments can resolve to a path that starts with `//` (`/.//host`, `/%2e//host`,
  // `/a/..//host`), which a browser would read as another host.
  if (url.pathname.startsWith('//')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
