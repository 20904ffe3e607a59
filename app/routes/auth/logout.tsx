import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { destroySession } from '~/utils/auth.server';
import { withCookies } from '~/utils/responses.server';
import { toastHeader } from '~/utils/toast.server';

/** POST /logout: ends this session on the server, then /signin with 'Logout Successful'. */
export async function action({ request }: ActionFunctionArgs) {
  // Only the form's POST: a DELETE or PUT from anywhere else must not end the session.
  if (request.method !== 'POST')
    return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
  return redirect('/signin', {
    headers: withCookies(
      await destroySession(request),
      await toastHeader({ type: 'success', message: 'Logout Successful' }),
    ),
  });
}

/** A link cannot log anyone out (only the header's form post can). */
export function loader() {
  return redirect('/home');
}
