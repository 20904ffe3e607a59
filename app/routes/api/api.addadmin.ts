import type { ActionFunctionArgs } from '@remix-run/node';
import { addAdmin } from '~/services/admin.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/addadmin {email} -> {success, message}. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('addadmin', async () => {
    const actor = await requireApiAdmin(request, context);
    return apiAction(
      request,
      {
        name: 'addadmin',
        schema: API.addadmin.body,
        run: ({ email }) => addAdmin(actor, email),
      },
      ({ message }) => apiJson(API.addadmin, 200, { success: true, message }),
    );
  });
}
