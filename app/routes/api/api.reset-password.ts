import { apiAction } from '~/utils/actions.server';
import type { ActionFunctionArgs } from '@remix-run/node';
import { resetPassword } from '~/services/accounts/password-reset.server';
import { clientIp } from '~/utils/rate-limit.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/reset-password {password, token} -> {success, message, email}. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  return apiAction(
    request,
    {
      name: 'reset-password',
      schema: API.resetPassword.body,
      run: (input) => resetPassword(input, ip),
    },
    (value) =>
      apiJson(API.resetPassword, 200, {
        success: true,
        message: value.message,
        email: value.email,
      }),
  );
}
