import { apiAction } from '~/utils/actions.server';
import type { ActionFunctionArgs } from '@remix-run/node';
import type { User } from '~/models/users.server';
import { signIn, signInSchema } from '~/services/accounts.server';
import { clientIp } from '~/utils/rate-limit.server';
import { withCookies } from '~/utils/responses.server';

/** The API's userData (its own field names); never the password hash. */
function toUserData(user: User) {
  return { email: user.email, mName: user.name, _id: user.id, type: user.plan };
}

/** POST /api/signin {email, password} -> {success, message, userData}; sets the session cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  return apiAction(
    request,
    {
      name: 'signin',
      schema: signInSchema,
      run: (input) => signIn(input, ip, request.headers.get('Cookie')),
    },
    (value) =>
      Response.json(
        { success: true, message: value.message, userData: toUserData(value.user) },
        { headers: withCookies(value.cookie, value.deviceCookie) },
      ),
  );
}
