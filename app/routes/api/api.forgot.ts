import { apiAction } from '~/utils/actions.server';
import type { ActionFunctionArgs } from '@remix-run/node';
import { requestPasswordReset } from '~/services/accounts/password-reset.server';
import { clientIp } from '~/utils/rate-limit.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/forgot {email, name, company, logo} -> {success, message}. Only the
 * email is read: name comes from the account, company and logo from the
 * configuration. The answer is the same whether or not the account exists.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  return apiAction(
    request,
    {
      name: 'forgot',
      schema: API.forgot.body,
      run: (input) => requestPasswordReset(input, ip),
    },
    (value) => apiJson(API.forgot, 200, { success: true, message: value.message }),
  );
}
