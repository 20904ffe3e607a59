import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { generateText } from '~/services/vendors/ai.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { log } from '~/utils/logger.server';
import { requireValidBody, requiredText } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';

/** POST /api/generate { prompt }: the model's Markdown answer, for signed-in members only. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('generate', async () => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const user = await requireApiUser(request);
    const { prompt } = await requireValidBody(request, z.object({ prompt: requiredText(4000) }));
    await requireAiAllowance(user);
    try {
      return Response.json({ success: true, text: await generateText(prompt, { retries: 2 }) });
    } catch (error) {
      log.warn('api.generate_failed', { userId: user.id, error });
      return vendorUnavailable('AI');
    }
  });
}
