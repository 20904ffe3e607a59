import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { searchImage } from '~/services/vendors/media.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody, requiredText } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';

/** POST /api/image { prompt }: the best photo's url (empty when none), with its credit. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('image', async () => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const user = await requireApiUser(request);
    const { prompt } = await requireValidBody(request, z.object({ prompt: requiredText(300) }));
    await requireAiAllowance(user);
    try {
      const image = await searchImage(prompt);
      return Response.json({ success: true, url: image?.url ?? '', credit: image?.credit ?? null });
    } catch {
      return vendorUnavailable('image');
    }
  });
}
