import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { outlineForPrompt } from '~/services/vendors/ai.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { log } from '~/utils/logger.server';
import { requireValidBody, requiredText } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';

/** POST /api/prompt { prompt }: an outline as JSON text, for signed-in members only. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('prompt', async () => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const user = await requireApiUser(request);
    const { prompt } = await requireValidBody(request, z.object({ prompt: requiredText(4000) }));
    await requireAiAllowance(user);
    try {
      const outline = await outlineForPrompt(prompt, { retries: 2 });
      return Response.json({ success: true, generatedText: JSON.stringify(outline) });
    } catch (error) {
      log.warn('api.prompt_failed', { userId: user.id, error });
      return vendorUnavailable('AI');
    }
  });
}
