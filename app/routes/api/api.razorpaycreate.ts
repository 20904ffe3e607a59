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
import { asRazorpaySubscription } from '~/api/provider-objects.server';

/**
 * POST /api/razorpaycreate {plan, email, fullAddress} -> Razorpay's subscription entity (its
 * `short_url` to pay at and its `id` for /api/razorapypending), as the spec's clients read it.
 * The structured fields of /api/paypal are taken too; the member's name fills what is missing.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('razorpaycreate', async () => {
    const user = await requireApiUser(request, context);
    return idempotent(request, user.id, () =>
      apiAction(
        request,
        {
          name: 'razorpaycreate',
          schema: API.razorpaycreate.body,
          run: async (input) => {
            const plan = await planFromApi(input.plan);
            if (!plan) return fail('Unknown plan', 400);
            const [first = user.name, ...rest] = user.name.trim().split(/\s+/);
            return startCheckout(user, {
              plan,
              provider: 'razorpay',
              returnBase: providerReturnBase(request),
              customer: {
                email: input.email,
                firstName: input.name?.trim() || first,
                lastName: input.lastName?.trim() ?? rest.join(' '),
                address: input.address?.trim() || input.fullAddress?.trim() || '',
                postalCode: input.post?.trim() ?? '',
                country: input.country?.trim().toUpperCase() ?? '',
              },
            });
          },
        },
        (created) => apiJson(API.razorpaycreate, 200, asRazorpaySubscription(created.provider)),
      ),
    );
  });
}
