import type { ActionFunctionArgs } from '@remix-run/node';
import { searchImage } from '~/services/vendors/media.server';
import { requireAiAllowance, vendorUnavailable } from '~/services/ai-allowance.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { absoluteUrl } from '~/utils/public-url.server';

/** POST /api/image { prompt }: the best photo's url (empty when none), with its credit. */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('image', async () => {
    const user = await requireApiUser(request, context);
    const { prompt } = await requireValidBody(request, API.image.body);
    await requireAiAllowance(user);
    try {
      const image = await searchImage(prompt);
      return apiJson(API.image, 200, {
        success: true,
        url: image ? absoluteUrl(image.url, request) : '',
        credit: image?.credit ?? null,
      });
    } catch {
      return vendorUnavailable('image');
    }
  });
}
