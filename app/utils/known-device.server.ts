import { createCookie } from '@remix-run/node';
import { secureCookies } from './cookies.server';
import { env } from './env.server';

/**
 * A signed cookie naming the accounts that signed in on this browser (ADR 36). The per-account
 * sign-in cap (issue 31) pauses guessing from new devices; a browser its owner signed in with
 * before keeps working meanwhile. Signed with SESSION_SECRET, so it cannot be made up, and only
 * a good password or a sign-up puts an account in it.
 */
const COOKIE_NAME = '__device';
/** Accounts kept per browser, newest first: a shared family computer, not a list of everyone. */
const MAX_ACCOUNTS = 10;
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60; // the longest lifetime browsers allow

type DeviceCookie = ReturnType<typeof createCookie>;
let cookieCache: { secret: string; secure: boolean; cookie: DeviceCookie } | undefined;

function deviceCookie(): DeviceCookie {
  const secret = env().SESSION_SECRET;
  const secure = secureCookies();
  if (cookieCache?.secret !== secret || cookieCache.secure !== secure)
    cookieCache = {
      secret,
      secure,
      cookie: createCookie(COOKIE_NAME, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        secrets: [secret],
        maxAge: MAX_AGE_SECONDS,
      }),
    };
  return cookieCache.cookie;
}

/** The user ids this browser signed in as before; none for a missing, old or forged cookie. */
export async function accountsKnownToDevice(cookieHeader: string | null): Promise<string[]> {
  const value: unknown = await deviceCookie().parse(cookieHeader);
  if (!Array.isArray(value)) return [];
  return value.filter((id): id is string => typeof id === 'string').slice(0, MAX_ACCOUNTS);
}

/** The Set-Cookie that adds `userId` to this browser's known accounts (first in the list). */
export async function rememberDevice(cookieHeader: string | null, userId: string) {
  const known = await accountsKnownToDevice(cookieHeader);
  const accounts = [userId, ...known.filter((id) => id !== userId)].slice(0, MAX_ACCOUNTS);
  return deviceCookie().serialize(accounts);
}
