import type { ActionFunctionArgs } from '@remix-run/node';
import { receivePayPalWebhook } from '~/services/billing/webhooks.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /webhooks/paypal: PayPal's events, verified with PayPal's verify-webhook-signature API. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('webhooks.paypal', async () => {
    const result = await receivePayPalWebhook(await request.text(), request.headers);
    return result.ok ? apiJson(API.paypalWebhook, 200, { received: true }) : failureJson(result);
  });
}
