import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { confirmSubscription } from '~/services/billing.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { requiredText } from '~/utils/validation.server';

/**
 * POST /api/razorapydetails {subscriberId} -> {success, plan, session}: the
 * caller's plan becomes the one Razorpay says the subscription is active on.
 * A uid or plan sent along is ignored. (The path keeps the API's spelling.)
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('razorapydetails', async () => {
    const user = await requireApiUser(request);
    return apiAction(
      request,
      {
        name: 'razorapydetails',
        schema: z.object({ subscriberId: requiredText(64) }),
        run: ({ subscriberId }) => confirmSubscription(user, 'razorpay', subscriberId),
      },
      ({ subscription, provider }) =>
        Response.json({ success: true, plan: subscription.plan, session: provider.raw }),
    );
  });
}
