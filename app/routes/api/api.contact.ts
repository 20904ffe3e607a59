import type { ActionFunctionArgs } from '@remix-run/node';
import { submitContact } from '~/services/contact.server';
import { clientIp } from '~/utils/rate-limit.server';
import { apiError, failureJson, guardApi } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/contact {fname, lname, email, phone, msg} -> {success, message}. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('contact', async () => {
    if (request.method !== 'POST') return loader();
    const result = await submitContact(await readBody(request), clientIp(context));
    return result.ok
      ? apiJson(API.contact, 200, { success: true, message: result.value.message })
      : failureJson(result);
  });
}

export function loader() {
  return apiError(405, 'Method not allowed', { headers: { Allow: 'POST' } });
}
