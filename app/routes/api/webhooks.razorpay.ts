import type { ActionFunctionArgs } from '@remix-run/node';
import { receiveRazorpayWebhook } from '~/services/billing/webhooks.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /webhooks/razorpay: Razorpay's signed events (X-Razorpay-Signature over the raw body). */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('webhooks.razorpay', async () => {
    const result = await receiveRazorpayWebhook(await request.text(), request.headers);
    return result.ok ? apiJson(API.razorpayWebhook, 200, { received: true }) : failureJson(result);
  });
}
