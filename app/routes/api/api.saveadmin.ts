import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { POLICY_KEYS } from '../../../db/schema';
import { savePolicyText } from '~/services/admin.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { REQUIRED_FIELDS_MESSAGE } from '~/utils/validation.server';

const schema = z.object({
  data: z.string({ error: REQUIRED_FIELDS_MESSAGE }).min(1, REQUIRED_FIELDS_MESSAGE).max(200_000),
  type: z.enum(POLICY_KEYS, { error: 'Unknown policy' }),
});

/** POST /api/saveadmin {data, type} -> {success, message}: the policy HTML, sanitized on the way in. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('saveadmin', async () => {
    const actor = await requireApiAdmin(request);
    return apiAction(
      request,
      {
        name: 'saveadmin',
        schema,
        run: async ({ data, type }) => savePolicyText(actor, type, data),
      },
      ({ message }) => Response.json({ success: true, message }),
    );
  });
}
