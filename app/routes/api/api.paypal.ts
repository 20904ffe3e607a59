import type { ActionFunctionArgs } from '@remix-run/node';
import { fail } from '~/domain/result';
import { planFromApi } from '~/services/billing/providers.server';
import { startCheckout } from '~/services/billing/checkout.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { providerReturnBase } from '~/utils/public-url.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { idempotent } from '~/utils/idempotency.server';
import { payPalCreated } from '~/api/provider-objects.server';

/**
 * POST /api/paypal {planId, email, name, lastName, post, address, country} ->
 * {success, id, status, links}: starts a PayPal subscription for the caller; the member
 * approves it at the `rel: approve` link. Any brand, admin or user sent is ignored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('paypal', async () => {
    const user = await requireApiUser(request, context);
    return idempotent(request, user.id, () =>
      apiAction(
        request,
        {
          name: 'paypal',
          schema: API.paypal.body,
          run: async (input) => {
            const plan = await planFromApi(input.planId);
            if (!plan) return fail('Unknown plan', 400);
            return startCheckout(user, {
              plan,
              provider: 'paypal',
              returnBase: providerReturnBase(request),
              customer: {
                email: input.email,
                firstName: input.name,
                lastName: input.lastName,
                address: input.address,
                postalCode: input.post,
                country: input.country,
              },
            });
          },
        },
        (created) => {
          const paypal = payPalCreated(created.provider, created.subscriptionId);
          return apiJson(API.paypal, 200, {
            success: true,
            id: created.subscriptionId,
            status: paypal.status,
            // PayPal's own links when it gave them, the approval link at least.
            links:
              paypal.links.length > 0
                ? paypal.links
                : [{ href: created.approvalUrl, rel: 'approve', method: 'GET' }],
          });
        },
      ),
    );
  });
}
