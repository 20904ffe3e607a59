import type { ActionFunctionArgs } from '@remix-run/node';
import { emailReceipt } from '~/services/billing/member-receipts.server';
import { requireApiUser } from '~/utils/auth.server';
import { hit, tooManyRequests, type RateLimit } from '~/utils/rate-limit.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

const RECEIPT_EMAIL_LIMIT: RateLimit = { name: 'receipt-email', max: 5, windowSeconds: 60 * 60 };

/**
 * POST /api/downloadreceipt -> {success, message}: emails the caller's newest
 * receipt (as a PDF) to the caller's own address; pages download it from
 * /receipts/:number.pdf. The html and email a client sends are ignored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('downloadreceipt', async () => {
    const user = await requireApiUser(request, context);
    const limit = await hit(RECEIPT_EMAIL_LIMIT, user.id);
    if (!limit.allowed) return tooManyRequests(limit);
    const result = await emailReceipt(user);
    if (!result.ok) return failureJson(result);
    return apiJson(API.downloadreceipt, 200, { success: true, message: result.value.message });
  });
}
