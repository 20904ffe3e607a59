import type { ActionFunctionArgs } from '@remix-run/node';
import { memberType } from '~/domain/plans';
import { confirmPlanChange } from '~/services/billing/plan-change.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/paypalupdateuser {id} -> {success, plan}: after the plan change
 * was approved, the caller's plan becomes what PayPal now says (its name, as the spec's
 * `type`). The mName, email, user and plan an old client sends are ignored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('paypalupdateuser', async () => {
    const user = await requireApiUser(request, context);
    return apiAction(
      request,
      {
        name: 'paypalupdateuser',
        schema: API.paypalupdateuser.body,
        run: ({ id }) => confirmPlanChange(user, id),
      },
      ({ subscription }) =>
        apiJson(API.paypalupdateuser, 200, {
          success: true,
          plan: memberType(subscription.plan),
        }),
    );
  });
}
