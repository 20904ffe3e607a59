import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { safeRedirect } from '~/utils/redirect';
import { isTheme } from '~/utils/theme';
import { serializeTheme } from '~/utils/theme.server';
import { badRequest, readBody } from '~/utils/validation.server';

/** POST /theme: keeps the chosen theme in a cookie and reloads the page it came from. */
export async function action({ request }: ActionFunctionArgs) {
  const body = await readBody(request);
  if (!isTheme(body.theme)) return badRequest('Unknown theme');
  return redirect(safeRedirect(typeof body.redirectTo === 'string' ? body.redirectTo : null), {
    headers: { 'Set-Cookie': await serializeTheme(body.theme) },
  });
}

export function loader() {
  return redirect('/');
}
