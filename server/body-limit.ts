const DEFAULT_LIMIT = 1024 * 1024;
/**
 * Whole courses travel as JSON here, lesson texts included. A course holds at most a million
 * characters of lesson text (content-limits.ts); 8 MB carries that even JSON-escaped, and keeps
 * parsing a body on the request thread short.
 */
const LARGE_BODY_PATHS: Record<string, number> = {
  '/api/course': 8 * 1024 * 1024,
  '/api/update': 8 * 1024 * 1024,
  // A document of up to 10 MB (MAX_DOCUMENT_BYTES, app/domain/material.ts) and the form around
  // it (ADR 0032); a number here, so the web server's own modules import nothing of the app's.
  '/create': 11 * 1024 * 1024,
};

export function bodyLimitFor(pathname: string): number {
  return LARGE_BODY_PATHS[pathname] ?? DEFAULT_LIMIT;
}

export type BodyVerdict = { ok: true } | { ok: false; status: 411 | 413; message: string };

/**
 * Bodies are read whole into memory by the routes, so their size is checked
 * before: a declared length over the path's limit is refused, and so is a
 * body of undeclared length (browsers and ordinary clients always declare it).
 */
export function checkBodySize(
  method: string,
  pathname: string,
  contentLength: string | undefined,
  transferEncoding: string | undefined,
): BodyVerdict {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return { ok: true };
  const limit = bodyLimitFor(pathname);
  if (contentLength === undefined) {
    return transferEncoding
      ? { ok: false, status: 411, message: 'Please send the body with a Content-Length' }
      : { ok: true };
  }
  const length = Number(contentLength);
  if (!Number.isFinite(length) || length > limit) {
    return {
      ok: false,
      status: 413,
      message: `The request is too large (at most ${Math.round(limit / 1024 / 1024)} MB)`,
    };
  }
  return { ok: true };
}
