import type { ErrorCode } from '../app/domain/api-errors';

/**
 * The body of the web server's own refusals, in the shape of every `/api` failure (ADR 0057):
 * `{ success: false, message, code }`. The codes are the app's (app/domain/api-errors.ts),
 * imported as a type only: the server loads no app module.
 */
export function errorJson(message: string, code: ErrorCode): string {
  return JSON.stringify({ success: false, message, code });
}
