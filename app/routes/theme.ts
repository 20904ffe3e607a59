import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { safeRedirect } from '~/utils/redirect';
import { isTheme } from '~/utils/theme';
import { serializeTheme } from '~/utils/theme.server';

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const theme = form.get('theme');
  if (!isTheme(theme)) return Response.json({ message: 'Unknown theme' }, { status: 400 });
  return redirect(safeRedirect(form.get('redirectTo')), {
    headers: { 'Set-Cookie': await serializeTheme(theme) },
  });
}

export function loader() {
  return redirect('/');
}
