/**
 * The machine-readable side of every `/api` failure (ADR 0057): beside the message a person
 * reads, a `code` a program can branch on, and `param` naming the one field at fault. Codes are
 * few and stable, as Stripe's `error.code` and GitHub's `errors[].code` are; the message may be
 * reworded, the code may not. The web server (server/) answers its own refusals with these codes
 * too (it imports the type only).
 */
export const ERROR_CODES = [
  /** A field is missing or wrong; `param` names it when one field is at fault. */
  'invalid_request',
  /** The body says it is JSON and is not. */
  'invalid_json',
  /** No credentials: sign in or send `Authorization: Bearer <token>`. */
  'authentication_required',
  /** The bearer token does not exist (made up, revoked, ended by a password change). */
  'invalid_token',
  /** Signed in, but not allowed this (a member on an admin route, another member's row). */
  'forbidden',
  /** The plan does not include it (free members: 10 topics, video courses...). */
  'plan_required',
  /** A write from another site's page (CSRF), or an origin not in API_ALLOWED_ORIGINS. */
  'cross_site_request',
  'not_found',
  'method_not_allowed',
  /** The state does not allow it now (a paid subscription already, a course not finished...). */
  'conflict',
  /** A request with the same Idempotency-Key is still running: retry in a moment. */
  'idempotency_key_in_use',
  /** The Idempotency-Key was used before with another request body. */
  'idempotency_key_reused',
  /** The route is gone on purpose (`/api/data`). */
  'gone',
  'body_too_large',
  /** A rate limit or the hourly AI allowance: wait `Retry-After` seconds. */
  'rate_limited',
  'internal_error',
  /** A vendor (AI, payments, email) failed or is not set up: retry later. */
  'service_unavailable',
  /** The database or the server is busy: retry after `Retry-After`. */
  'server_busy',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code a status means when nothing more precise is known. */
function defaultErrorCode(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'authentication_required';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'conflict';
    case 410:
      return 'gone';
    case 413:
      return 'body_too_large';
    case 422:
      return 'idempotency_key_reused';
    case 429:
      return 'rate_limited';
    case 502:
    case 503:
    case 504:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'invalid_request';
  }
}

export interface ErrorBody {
  success: false;
  message: string;
  code: ErrorCode;
  param?: string;
}

/** Every `/api` failure's JSON: `{ success: false, message, code, param? }`. */
export function errorBody(
  status: number,
  message: string,
  details: { code?: ErrorCode; param?: string } = {},
): ErrorBody {
  return {
    success: false,
    message,
    code: details.code ?? defaultErrorCode(status),
    ...(details.param ? { param: details.param } : {}),
  };
}
