import { apiError } from '~/utils/responses.server';

/**
 * The original product's POST /api/data sent any HTML to any address: an open mail relay.
 * The server now sends its fixed welcome, reset and account-updated emails
 * itself, so this call is gone for good.
 */
export function action() {
  return apiError(
    410,
    'This call has been removed: account emails are sent by the server itself (sign-up, password reset, profile changes).',
  );
}

export const loader = action;
