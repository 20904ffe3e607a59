import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { destroySession } from '~/utils/auth.server';
import { withCookies } from '~/utils/responses.server';
import { toastHeader } from '~/utils/toast.server';

/** POST /logout: ends this session on the server, then /signin with 'Logout Successful'. */
export async function action({ request }: ActionFunctionArgs) {
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
