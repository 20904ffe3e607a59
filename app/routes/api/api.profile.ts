import type { ActionFunctionArgs } from '@remix-run/node';
import { updateProfile } from '~/services/accounts/profile.server';
import { requireApiUser } from '~/utils/auth.server';
import { fail } from '~/domain/result';
import { apiAction } from '~/utils/actions.server';
import { clientIp } from '~/utils/rate-limit.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/profile {email, mName, password, currentPassword, uid} -> {success,
 * message}. Acts on the caller only; a `uid` naming anyone else is refused. A new email or
 * password needs `currentPassword`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  // The caller first: an anonymous caller gets 401 whatever the body says.
  return guardApi('profile', async () => {
    const user = await requireApiUser(request, context);
    return apiAction(
      request,
      {
        name: 'profile',
        schema: API.profile.body,
        run: ({ uid, ...input }) =>
          uid !== undefined && uid !== user.id
            ? Promise.resolve(fail('You can only change your own profile', 403))
            : updateProfile(user, input, clientIp(context)),
      },
      (value) =>
        apiJson(
          API.profile,
          200,
          { success: true, message: value.message },
          { headers: value.cookie ? { 'Set-Cookie': value.cookie } : undefined },
        ),
    );
  });
}
