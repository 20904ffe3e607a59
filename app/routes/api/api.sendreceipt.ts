import type { ActionFunctionArgs } from '@remix-run/node';
import { emailLatestReceiptOnce } from '~/services/billing/member-receipts.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/sendreceipt -> {success, message}: the receipt of the caller's
 * newest payment, rendered on the server and emailed once. The html, email and
 * subscription a client sends are ignored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('sendreceipt', async () => {
    const user = await requireApiUser(request, context);
    const result = await emailLatestReceiptOnce(user);
    if (!result.ok) return failureJson(result);
    return apiJson(API.sendreceipt, 200, { success: true, message: result.value.message });
  });
}
