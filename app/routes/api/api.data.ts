/**
 * The original product's POST /api/data sent any HTML to any address: an open mail relay.
 * The server now sends its fixed welcome, reset and account-updated emails
 * itself, so this call is gone for good.
 */
export function action() {
  return Response.json(
    {
      success: false,
      message:
        'This call has been removed: account emails are sent by the server itself (sign-up, password reset, profile changes).',
    },
    { status: 410 },
  );
}

export const loader = action;
