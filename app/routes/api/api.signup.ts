import { apiAction } from '~/utils/actions.server';
import type { ActionFunctionArgs } from '@remix-run/node';
import { signUp } from '~/services/accounts/sign-up.server';
import { clientIp } from '~/utils/rate-limit.server';
import { withCookies } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/signup {email, mName, password, type} -> {success, message, userId}; also signs in. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  return apiAction(
    request,
    {
      name: 'signup',
      schema: API.signup.body,
      run: (input) => signUp(input, ip, request.headers.get('Cookie')),
    },
    (value) =>
      apiJson(
        API.signup,
        200,
        { success: true, message: value.message, userId: value.user.id },
        { headers: withCookies(value.cookie, value.deviceCookie) },
      ),
  );
}
