import type { ActionFunctionArgs } from '@remix-run/node';
import { resetApiSchema, resetPassword } from '~/services/accounts.server';
import { clientIp } from '~/utils/rate-limit.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { badRequest, parseWith, readBody } from '~/utils/validation.server';

/** POST /api/reset-password {password, token} -> {success, message, email}. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('reset-password', async () => {
    const parsed = parseWith(resetApiSchema, await readBody(request));
    if (!parsed.ok) return badRequest(parsed.message);
    const result = await resetPassword(parsed.data, clientIp(context));
    if (!result.success) return failureJson(result);
    return Response.json({ success: true, message: result.message, email: result.email });
  });
}
