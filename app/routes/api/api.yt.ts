import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { searchVideo } from '~/services/vendors/media.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody, requiredText } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';

/** POST /api/yt { prompt }: an embeddable video's id as `url` (empty when none). */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('yt', async () => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const user = await requireApiUser(request);
    const { prompt } = await requireValidBody(request, z.object({ prompt: requiredText(300) }));
    await requireAiAllowance(user);
    try {
      return Response.json({ success: true, url: (await searchVideo(prompt)) ?? '' });
    } catch {
      return vendorUnavailable('video');
    }
  });
}
