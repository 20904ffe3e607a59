import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { confirmPlanChange } from '~/services/billing.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { requiredText } from '~/utils/validation.server';

/**
 * POST /api/paypalupdateuser {id} -> {success, plan}: after the plan change
 * was approved, the caller's plan becomes what PayPal now says. The mName,
 * email, user and plan an old client sends are ignored.
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('paypalupdateuser', async () => {
    const user = await requireApiUser(request);
    return apiAction(
      request,
      {
        name: 'paypalupdateuser',
        schema: z.object({ id: requiredText(64) }),
        run: ({ id }) => confirmPlanChange(user, id),
      },
      ({ subscription }) => Response.json({ success: true, plan: subscription.plan }),
    );
  });
}
