import type { ActionFunctionArgs } from '@remix-run/node';
import { searchVideo } from '~/services/vendors/media.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** POST /api/yt { prompt }: an embeddable video's id as `url` (empty when none). */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('yt', async () => {
    const user = await requireApiUser(request, context);
    const { prompt } = await requireValidBody(request, API.yt.body);
    await requireAiAllowance(user);
    try {
      return apiJson(API.yt, 200, { success: true, url: (await searchVideo(prompt)) ?? '' });
    } catch {
      return vendorUnavailable('video');
    }
  });
}
