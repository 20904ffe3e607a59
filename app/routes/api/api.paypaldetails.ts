import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { confirmSubscription } from '~/services/billing.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { requiredText } from '~/utils/validation.server';

/**
 * POST /api/paypaldetails {subscriberId} -> {success, plan, session}: the
 * caller's plan becomes the one PayPal says the subscription is active on. A
 * uid or plan sent along is ignored.
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('paypaldetails', async () => {
    const user = await requireApiUser(request);
    return apiAction(
      request,
      {
        name: 'paypaldetails',
        schema: z.object({ subscriberId: requiredText(64) }),
        run: ({ subscriberId }) => confirmSubscription(user, 'paypal', subscriberId),
      },
      ({ subscription, provider }) =>
        Response.json({ success: true, plan: subscription.plan, session: provider.raw }),
    );
  });
}
