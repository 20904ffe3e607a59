import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { removeAdmin } from '~/services/admin.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { requiredText } from '~/utils/validation.server';

/** POST /api/removeadmin {email} -> {success, message}. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('removeadmin', async () => {
    const actor = await requireApiAdmin(request);
    return apiAction(
      request,
      {
        name: 'removeadmin',
        schema: z.object({ email: requiredText(254) }),
        run: async ({ email }) => removeAdmin(actor, email),
      },
      ({ message }) => Response.json({ success: true, message }),
    );
  });
}
