import type { ActionFunctionArgs } from '@remix-run/node';
import { fail } from '~/domain/result';
import { planFromApi } from '~/services/billing/providers.server';
import { startPlanChange } from '~/services/billing/plan-change.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { providerReturnBase } from '~/utils/public-url.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/paypalupdate {idPlan} -> {success, links}: moves the caller's own
 * subscription to the other paid plan (or the one named) after approval at
 * the `rel: approve` link.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('paypalupdate', async () => {
    const user = await requireApiUser(request, context);
    return apiAction(
      request,
      {
        name: 'paypalupdate',
        schema: API.paypalupdate.body,
        run: async ({ idPlan }) => {
          const plan = idPlan ? await planFromApi(idPlan) : undefined;
          if (plan === null) return fail('Unknown plan', 400);
          return startPlanChange(user, providerReturnBase(request), plan);
        },
      },
      ({ approvalUrl }) =>
        apiJson(API.paypalupdate, 200, {
          success: true,
          links: [{ href: approvalUrl, rel: 'approve', method: 'GET' }],
        }),
    );
  });
}
