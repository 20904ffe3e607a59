import type { ActionFunctionArgs } from '@remix-run/node';
import { outlineForPrompt } from '~/services/vendors/ai-outline.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { outlineAsContent } from '~/services/course-content.server';
import { requireApiUser } from '~/utils/auth.server';
import { log } from '~/utils/logger.server';
import { requireValidBody } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/prompt { prompt }: an outline as JSON text in the spec's course content shape (every
 * sub-topic with empty theory, youtube and image, not done), ready to save with /api/course.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('prompt', async () => {
    const user = await requireApiUser(request, context);
    const { prompt } = await requireValidBody(request, API.prompt.body);
    await requireAiAllowance(user);
    try {
      const outline = await outlineForPrompt(prompt, { retries: 2 });
      return apiJson(API.prompt, 200, {
        success: true,
        generatedText: JSON.stringify(outlineAsContent(outline)),
      });
    } catch (error) {
      log.warn('api.prompt_failed', { userId: user.id, error });
      return vendorUnavailable('AI');
    }
  });
}
