import type { ActionFunctionArgs } from '@remix-run/node';
import { cancelSubscription } from '~/services/billing/cancellation.server';
import { MESSAGES } from '~/services/billing/providers.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/paypalcancel -> {success, message}: cancels the caller's own
 * subscription (any id sent is ignored); the plan stays until the paid period ends.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('paypalcancel', async () => {
    const user = await requireApiUser(request, context);
    const result = await cancelSubscription(user);
    if (!result.ok) return failureJson(result);
    return apiJson(API.paypalcancel, 200, {
      success: true,
      message: MESSAGES.cancelled,
      paidUntil: result.value.paidUntil.toISOString(),
    });
  });
}
