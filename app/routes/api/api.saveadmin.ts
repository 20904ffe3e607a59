import type { ActionFunctionArgs } from '@remix-run/node';
import { savePolicyText } from '~/services/admin.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/saveadmin {data, type} -> {success, message}: the policy HTML, sanitized on the way in. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('saveadmin', async () => {
    const actor = await requireApiAdmin(request, context);
    return apiAction(
      request,
      {
        name: 'saveadmin',
        schema: API.saveadmin.body,
        run: ({ data, type }) => savePolicyText(actor, type, data),
      },
      ({ message }) => apiJson(API.saveadmin, 200, { success: true, message }),
    );
  });
}
