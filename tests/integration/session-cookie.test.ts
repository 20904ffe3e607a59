import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import { createSession, destroySession, getSessionUser } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';

/**
 * A session cookie header once verified is remembered (ADR 0030, amended): what the member sees
 * must not change. A forged signature is refused though the genuine header was read before, and
 * sign-out and expiry still end the session at once.
 */
const requestWith = (cookie: string) => ({
  url: 'http://localhost/api/courses',
  headers: new Headers({ Cookie: cookie }),
});

async function signedIn() {
  const user = await createUser({
    email: uniqueEmail('session-cookie'),
    name: 'Cookie Reader',
    password: 'long-enough-password',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

/** The cookie's signature with its last character changed. */
function forged(cookie: string): string {
  const value = decodeURIComponent(cookie.slice('__session='.length));
  const last = value.at(-1) === 'A' ? 'B' : 'A';
  return `__session=${encodeURIComponent(`${value.slice(0, -1)}${last}`)}`;
}

describe('the session cookie, read once per header', () => {
  it('gives the same member on every request with the same header', async () => {
    const { user, cookie } = await signedIn();
    expect((await getSessionUser(requestWith(cookie)))?.id).toBe(user.id);
    expect((await getSessionUser(requestWith(cookie)))?.id).toBe(user.id);
    expect((await getSessionUser(requestWith(`theme=dark; ${cookie}`)))?.id).toBe(user.id);
  });

  it('refuses a forged signature after the genuine header was read', async () => {
    const { user, cookie } = await signedIn();
    expect((await getSessionUser(requestWith(cookie)))?.id).toBe(user.id);
    expect(forged(cookie)).not.toBe(cookie);
    expect(await getSessionUser(requestWith(forged(cookie)))).toBeNull();
    expect(await getSessionUser(requestWith('__session=not-signed'))).toBeNull();
  });

  it('ends at sign-out though the header was read before', async () => {
    const { cookie } = await signedIn();
    expect(await getSessionUser(requestWith(cookie))).not.toBeNull();
    await destroySession(new Request('http://localhost/logout', { headers: { Cookie: cookie } }));
    expect(await getSessionUser(requestWith(cookie))).toBeNull();
  });

  it('ends when the session expires though the header was read before', async () => {
    const { user, cookie } = await signedIn();
    expect(await getSessionUser(requestWith(cookie))).not.toBeNull();
    const { sessions } = tables;
    await database()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(sessions.userId, user.id));
    expect(await getSessionUser(requestWith(cookie))).toBeNull();
  });
});
