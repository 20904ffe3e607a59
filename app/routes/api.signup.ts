import type { ActionFunctionArgs } from '@remix-run/node';
import { signUp, signUpSchema } from '~/services/accounts.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { badRequest, parseWith, readBody } from '~/utils/validation.server';
import { clientIp } from '~/utils/rate-limit.server';

/** POST /api/signup {email, mName, password, type} -> {success, message, userId}; also signs in. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('signup', async () => {
    const parsed = parseWith(signUpSchema, await readBody(request));
    if (!parsed.ok) return badRequest(parsed.message);
    const result = await signUp(parsed.data, clientIp(context));
    if (!result.success) return failureJson(result);
    return Response.json(
      { success: true, message: result.message, userId: result.user.id },
      { headers: { 'Set-Cookie': result.cookie } },
    );
  });
}
