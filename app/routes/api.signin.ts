import type { ActionFunctionArgs } from '@remix-run/node';
import { signIn, signInSchema, toUserData } from '~/services/accounts.server';
import { clientIp } from '~/utils/rate-limit.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { badRequest, parseWith, readBody } from '~/utils/validation.server';

/** POST /api/signin {email, password} -> {success, message, userData}; sets the session cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('signin', async () => {
    const parsed = parseWith(signInSchema, await readBody(request));
    if (!parsed.ok) return badRequest(parsed.message);
    const result = await signIn(parsed.data, clientIp(context));
    if (!result.success) return failureJson(result);
    return Response.json(
      { success: true, message: result.message, userData: toUserData(result.user) },
      { headers: { 'Set-Cookie': result.cookie } },
    );
  });
}
