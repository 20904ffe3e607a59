import type { ActionFunctionArgs } from '@remix-run/node';
import { submitContact } from '~/utils/contact-form.server';
import { guardApi } from '~/utils/responses.server';

/** POST /api/contact {fname, lname, email, phone, msg} -> {success, message}. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('contact', async () => {
    if (request.method !== 'POST') return loader();
    const outcome = await submitContact(request, context);
    return Response.json(outcome.body, { status: outcome.status, headers: outcome.headers });
  });
}

export function loader() {
  return Response.json(
    { success: false, message: 'Method not allowed' },
    { status: 405, headers: { Allow: 'POST' } },
  );
}
