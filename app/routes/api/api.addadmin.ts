import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { addAdmin } from '~/services/admin.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { guardApi } from '~/utils/responses.server';
import { requiredText } from '~/utils/validation.server';

/** POST /api/addadmin {email} -> {success, message}. */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('addadmin', async () => {
    const actor = await requireApiAdmin(request);
    return apiAction(
      request,
      {
        name: 'addadmin',
        schema: z.object({ email: requiredText(254) }),
        run: async ({ email }) => addAdmin(actor, email),
      },
      ({ message }) => Response.json({ success: true, message }),
    );
  });
}
