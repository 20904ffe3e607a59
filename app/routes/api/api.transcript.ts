import { apiError, guardApi } from '~/utils/responses.server';
import type { ActionFunctionArgs } from '@remix-run/node';
import { fetchTranscript } from '~/services/vendors/media.server';
import { requireAiAllowance } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody } from '~/utils/validation.server';
import { API, apiJson } from '~/api/contract.server';

export const NO_TRANSCRIPT_MESSAGE = 'No transcript is available for this video';

/**
 * POST /api/transcript { prompt: videoId }: the video's captions, as the spec has them: `url` is
 * the list of items with their text. When none can be had, a 404 tells the client to use a
 * plain explanation instead (the product's fallback).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('transcript', async () => {
    const user = await requireApiUser(request, context);
    const { prompt } = await requireValidBody(request, API.transcript.body);
    await requireAiAllowance(user);
    try {
      return apiJson(API.transcript, 200, { success: true, url: await fetchTranscript(prompt) });
    } catch {
      return apiError(404, NO_TRANSCRIPT_MESSAGE);
    }
  });
}
