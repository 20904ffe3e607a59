import type { ActionFunctionArgs } from '@remix-run/node';
import { profileSchema, updateProfile } from '~/services/accounts.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { badRequest, parseWith, readBody } from '~/utils/validation.server';

/**
 * POST /api/profile {email, mName, password, uid} -> {success, message}. Acts
 * on the session's user only; a `uid` naming anyone else is refused.
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('profile', async () => {
    const user = await requireApiUser(request);
    const body = await readBody(request);
    if (body.uid !== undefined && body.uid !== user.id) {
      return Response.json(
        { success: false, message: 'You can only change your own profile' },
        { status: 403 },
      );
    }
    const parsed = parseWith(profileSchema, body);
    if (!parsed.ok) return badRequest(parsed.message);
    const result = await updateProfile(user, parsed.data);
    if (!result.success) return failureJson(result);
    return Response.json(
      { success: true, message: result.message },
      { headers: result.cookie ? { 'Set-Cookie': result.cookie } : undefined },
    );
  });
}
