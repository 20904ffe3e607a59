import { z } from 'zod';
import { addAdmin, removeAdmin } from '~/services/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { formResult } from '~/utils/responses.server';
import { parseWith, readBody, requiredText } from '~/utils/validation.server';

const roleChange = z.object({ intent: z.enum(['add', 'remove']), email: requiredText(254) });

/** The Add Admin and Remove Admin buttons of the Users and Admins tables. */
export async function adminRoleAction(request: Request) {
  const actor = await requireAdmin(request);
  const parsed = parseWith(roleChange, await readBody(request));
  if (!parsed.ok) return formResult(400, parsed.message);
  const { intent, email } = parsed.value;
  const result = intent === 'add' ? await addAdmin(actor, email) : await removeAdmin(actor, email);
  return result.ok
    ? formResult(200, result.value.message, true)
    : formResult(result.status, result.message);
}
