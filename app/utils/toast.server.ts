import { createCookieSessionStorage } from '@remix-run/node';
import { secureCookies } from './cookies.server';
import { env } from './env.server';

export interface Toast {
  type: 'success' | 'error' | 'info';
  message: string;
}

function storage() {
  return createCookieSessionStorage<{ toast: Toast }, { toast: Toast }>({
    cookie: {
      name: 'toast',
      path: '/',
      sameSite: 'lax',
      httpOnly: true,
      secure: secureCookies(),
      secrets: [env().SESSION_SECRET],
    },
  });
}

/** A Set-Cookie header carrying one toast to show after the next navigation. */
export async function toastHeader(toast: Toast): Promise<string> {
  const session = await storage().getSession();
  session.flash('toast', toast);
  return storage().commitSession(session);
}

/** Reads (and consumes) the pending toast, if any. */
export async function takeToast(request: Request) {
  const session = await storage().getSession(request.headers.get('Cookie'));
  const toast = session.get('toast') ?? null;
  return { toast, header: toast ? await storage().commitSession(session) : null };
}
