import { apiAction } from '~/utils/actions.server';
import type { ActionFunctionArgs } from '@remix-run/node';
import { memberType } from '~/domain/plans';
import type { User } from '~/models/users.server';
import { signIn } from '~/services/accounts/sign-in.server';
import { clientIp } from '~/utils/rate-limit.server';
import { withCookies } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** The spec's userData: its field names, the plan as its `type`; never the password hash. */
function toUserData(user: User) {
  return { email: user.email, mName: user.name, _id: user.id, type: memberType(user.plan) };
}

/** POST /api/signin {email, password} -> {success, message, userData}; sets the session cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  return apiAction(
    request,
    {
      name: 'signin',
      schema: API.signin.body,
      run: (input) => signIn(input, ip, request.headers.get('Cookie')),
    },
    (value) =>
      apiJson(
        API.signin,
        200,
        { success: true, message: value.message, userData: toUserData(value.user) },
        { headers: withCookies(value.cookie, value.deviceCookie) },
      ),
  );
}
