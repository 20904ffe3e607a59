import type { ActionFunctionArgs } from '@remix-run/node';
import { dashboardFigures, listAdmins } from '~/models/admin.server';
import { getPolicies } from '~/models/policies.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/dashboard: the API's dashboard response (dollars in `sum` and `total`). */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('dashboard', async () => {
    await requireApiAdmin(request, context);
    const [figures, policies, admins] = await Promise.all([
      dashboardFigures(),
      getPolicies(),
      listAdmins(),
    ]);
    const main = admins.find((admin) => admin.role === 'main_admin');
    return apiJson(API.dashboard, 200, {
      users: figures.users,
      courses: figures.courses,
      sum: figures.recurringCents / 100,
      total: figures.totalCents / 100,
      paid: figures.paid,
      free: figures.free,
      textType: figures.textType,
      videoType: figures.videoType,
      admin: { email: main?.email ?? '', ...policies },
    });
  });
}
