import type { ActionFunctionArgs } from '@remix-run/node';
import { subscriptionDetails } from '~/services/billing/subscription-view.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { asPayPalSubscription, asRazorpaySubscription } from '~/api/provider-objects.server';

/**
 * POST /api/subscriptiondetail -> {session, method}: the caller's subscription as its provider
 * has it (PayPal's REST JSON or Razorpay's entity), with what this site recorded.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('subscriptiondetail', async () => {
    const user = await requireApiUser(request, context);
    const details = await subscriptionDetails(user);
    if (!details.ok) return failureJson(details);
    const { subscription, provider } = details.value;
    const session = !provider
      ? null
      : provider.provider === 'paypal'
        ? asPayPalSubscription(provider.raw)
        : asRazorpaySubscription(provider.raw);
    return apiJson(API.subscriptiondetail, 200, {
      success: true,
      method: subscription.provider,
      session,
      status: subscription.status,
      paidUntil: subscription.paidUntil?.toISOString() ?? null,
    });
  });
}
