import type { ActionFunctionArgs } from '@remix-run/node';
import { dashboardFigures, listAdmins } from '~/models/admin.server';
import { getPolicies } from '~/models/policies.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/dashboard: the API's dashboard response. `sum` and `total` are the spec's, in US
 * dollars only; `revenue` has every currency apart (ADR 0063).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('dashboard', async () => {
    await requireApiAdmin(request, context);
    const [figures, policies, admins] = await Promise.all([
      dashboardFigures(),
      getPolicies(),
      listAdmins(),
    ]);
    const main = admins.find((admin) => admin.role === 'main_admin');
    const usd = figures.revenue.find((revenue) => revenue.currency === 'USD');
    return apiJson(API.dashboard, 200, {
      users: figures.users,
      courses: figures.courses,
      sum: (usd?.recurringCents ?? 0) / 100,
      total: (usd?.totalCents ?? 0) / 100,
      revenue: figures.revenue.map((revenue) => ({
        currency: revenue.currency,
        recurring: revenue.recurringCents / 100,
        total: revenue.totalCents / 100,
      })),
      paid: figures.paid,
      free: figures.free,
      textType: figures.textType,
      videoType: figures.videoType,
      admin: { email: main?.email ?? '', ...policies },
    });
  });
}
