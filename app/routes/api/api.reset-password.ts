import { apiAction } from '~/utils/actions.server';
import type { ActionFunctionArgs } from '@remix-run/node';
import { resetApiSchema, resetPassword } from '~/services/accounts.server';
import { clientIp } from '~/utils/rate-limit.server';

/** POST /api/reset-password {password, token} -> {success, message, email}. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  return apiAction(
    request,
    { name: 'reset-password', schema: resetApiSchema, run: (input) => resetPassword(input, ip) },
    (value) => Response.json({ success: true, message: value.message, email: value.email }),
  );
}
