import type { ActionFunctionArgs } from '@remix-run/node';
import { confirmSubscription } from '~/services/billing/checkout.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { asRazorpaySubscription } from '~/api/provider-objects.server';

/**
 * POST /api/razorapydetails {subscriberId} -> Razorpay's subscription entity: the caller's
 * plan becomes the one Razorpay says the subscription is active on. A uid or plan sent along
 * is ignored. (The path keeps the spec's spelling.)
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('razorapydetails', async () => {
    const user = await requireApiUser(request, context);
    return apiAction(
      request,
      {
        name: 'razorapydetails',
        schema: API.razorapydetails.body,
        run: ({ subscriberId }) => confirmSubscription(user, 'razorpay', subscriberId),
      },
      ({ provider }) => apiJson(API.razorapydetails, 200, asRazorpaySubscription(provider.raw)),
    );
  });
}
