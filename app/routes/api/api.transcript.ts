import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { fetchTranscript } from '~/services/vendors/media.server';
import { requireAiAllowance } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody, requiredText } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';

/**
 * POST /api/transcript { prompt: videoId }: the video's captions as items with
 * text. When none can be had, a 404 tells the client to use a plain
 * explanation instead (the product's fallback).
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('transcript', async () => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const user = await requireApiUser(request);
    const { prompt } = await requireValidBody(request, z.object({ prompt: requiredText(20) }));
    await requireAiAllowance(user);
    try {
      const items = await fetchTranscript(prompt);
      return Response.json({
        success: true,
        url: `https://www.youtube.com/watch?v=${prompt}`,
        items,
      });
    } catch {
      return Response.json(
        { success: false, message: 'No transcript is available for this video' },
        { status: 404 },
      );
    }
  });
}
