import type { ActionFunctionArgs } from '@remix-run/node';
import { forgotSchema, requestPasswordReset } from '~/services/accounts.server';
import { clientIp } from '~/utils/rate-limit.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { badRequest, parseWith, readBody } from '~/utils/validation.server';

/**
 * POST /api/forgot {email, name, company, logo} -> {success, message}. Only the
 * email is read: name comes from the account, company and logo from the
 * configuration. The answer is the same whether or not the account exists.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('forgot', async () => {
    const parsed = parseWith(forgotSchema, await readBody(request));
    if (!parsed.ok) return badRequest(parsed.message);
    const result = await requestPasswordReset(parsed.data, clientIp(context));
    if (!result.success) return failureJson(result);
    return Response.json({ success: true, message: result.message });
  });
}
