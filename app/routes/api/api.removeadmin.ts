import type { ActionFunctionArgs } from '@remix-run/node';
import { removeAdmin } from '~/services/admin.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/removeadmin {email} -> {success, message}. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('removeadmin', async () => {
    const actor = await requireApiAdmin(request, context);
    return apiAction(
      request,
      {
        name: 'removeadmin',
        schema: API.removeadmin.body,
        run: ({ email }) => removeAdmin(actor, email),
      },
      ({ message }) => apiJson(API.removeadmin, 200, { success: true, message }),
    );
  });
}
