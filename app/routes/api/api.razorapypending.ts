import type { ActionFunctionArgs } from '@remix-run/node';
import { fail, ok } from '~/domain/result';
import { confirmSubscription } from '~/services/billing/checkout.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/razorapypending {sub} -> {status}: 'active' (the caller is now
 * paid), 'pending', or 'cancelled'/'expired', as Razorpay has it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('razorapypending', async () => {
    const user = await requireApiUser(request, context);
    return apiAction(
      request,
      {
        name: 'razorapypending',
        schema: API.razorapypending.body,
        run: async ({ sub }) => {
          const result = await confirmSubscription(user, 'razorpay', sub);
          if (result.ok) return ok('active');
          if (result.status === 409) return ok('pending');
          if (result.status === 410) return ok('expired');
          return fail(result.message, result.status);
        },
      },
      (status) => apiJson(API.razorapypending, 200, { success: true, status }),
    );
  });
}
