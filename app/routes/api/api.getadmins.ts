import type { LoaderFunctionArgs } from '@remix-run/node';
import { listAdmins, listUsers } from '~/models/admin.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { pageRequest } from '~/utils/paging.server';
import { requireValidQuery } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';
import { apiUser } from '~/api/admin-lists.server';
import { API, apiJson } from '~/api/contract.server';

/** GET /api/getadmins -> {admins, users}: every admin ('no' = removable) and a page of members. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return guardApi('getadmins', async () => {
    await requireApiAdmin(request, context);
    const url = new URL(request.url);
    requireValidQuery(url, API.getadmins.query);
    const users = await listUsers(pageRequest(url, ['email', 'name', 'created'], 'created'));
    return apiJson(API.getadmins, 200, {
      admins: (await listAdmins()).map((admin) => ({
        _id: admin.id,
        email: admin.email,
        mName: admin.name,
        type: admin.role === 'main_admin' ? ('main' as const) : ('no' as const),
      })),
      users: users.rows.map(apiUser),
    });
  });
}
