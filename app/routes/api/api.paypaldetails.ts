import type { ActionFunctionArgs } from '@remix-run/node';
import { confirmSubscription } from '~/services/billing/checkout.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { asPayPalSubscription } from '~/api/provider-objects.server';

/**
 * POST /api/paypaldetails {subscriberId} -> PayPal's subscription object (its REST JSON, as
 * the spec's success page reads it): the caller's plan becomes the one PayPal says the
 * subscription is active on. A uid or plan sent along is ignored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('paypaldetails', async () => {
    const user = await requireApiUser(request, context);
    return apiAction(
      request,
      {
        name: 'paypaldetails',
        schema: API.paypaldetails.body,
        run: ({ subscriberId }) => confirmSubscription(user, 'paypal', subscriberId),
      },
      ({ provider }) => apiJson(API.paypaldetails, 200, asPayPalSubscription(provider.raw)),
    );
  });
}
