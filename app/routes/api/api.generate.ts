import type { ActionFunctionArgs } from '@remix-run/node';
import { generateText } from '~/services/vendors/ai-lessons.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { log } from '~/utils/logger.server';
import { markdownToSafeHtml } from '~/utils/markdown.server';
import { requireValidBody } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/generate { prompt }: the model's answer as `text`, sanitized HTML (the spec's
 * clients put it in the page as HTML), for signed-in members only.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('generate', async () => {
    const user = await requireApiUser(request, context);
    const { prompt } = await requireValidBody(request, API.generate.body);
    await requireAiAllowance(user);
    let markdown: string;
    try {
      markdown = await generateText(prompt, { retries: 2 });
    } catch (error) {
      log.warn('api.generate_failed', { userId: user.id, error });
      return vendorUnavailable('AI');
    }
    return apiJson(API.generate, 200, { success: true, text: markdownToSafeHtml(markdown) });
  });
}
