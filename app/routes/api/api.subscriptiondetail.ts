import type { ActionFunctionArgs } from '@remix-run/node';
import { subscriptionDetails } from '~/services/billing.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';

/** POST /api/subscriptiondetail -> {session, method}: the caller's subscription as its provider has it. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('subscriptiondetail', async () => {
    const user = await requireApiUser(request);
    const details = await subscriptionDetails(user);
    if (!details.ok) return failureJson(details);
    const { subscription, provider } = details.value;
    return Response.json({
      success: true,
      method: subscription.provider,
      session: provider?.raw ?? null,
      status: subscription.status,
      paidUntil: subscription.paidUntil?.toISOString() ?? null,
    });
  });
}
