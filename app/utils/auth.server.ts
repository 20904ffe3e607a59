import { createCookie, redirect, type AppLoadContext } from '@remix-run/node';
import { and, eq, gt, sql } from 'drizzle-orm';
import { isAdmin, type User } from '~/models/users.server';
import { isMainAdminRole } from '~/domain/roles';
import { userOfApiToken } from '~/models/api-tokens.server';
import { secureCookies } from './cookies.server';
import { safeRedirect } from './redirect';
import { apiError, withCookies } from './responses.server';
import type { RequestLike } from './json-route.server';
import { toastHeader } from './toast.server';
import { database, preparedQuery, tables } from './database.server';
import { env } from './env.server';
import { hashToken, newSecretToken } from './ids.server';
import { clientIp, hit, type RateLimit } from './rate-limit.server';

const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

type SessionCookie = ReturnType<typeof createCookie>;
let cookieCache: { secret: string; secure: boolean; cookie: SessionCookie } | undefined;

/** Made once per secret and scheme rule, not on every request. */
function sessionCookie(): SessionCookie {
  const secret = env().SESSION_SECRET;
  const secure = secureCookies();
  if (cookieCache?.secret !== secret || cookieCache.secure !== secure)
    cookieCache = {
      secret,
      secure,
      cookie: createCookie('__session', {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        secrets: [secret],
        maxAge: SESSION_TTL_MS / 1000,
      }),
    };
  return cookieCache.cookie;
}

/**
 * Cookie headers already read, with the session token each carried. Checking the signature (an
 * HMAC, then cookie-signature's two more hashes to compare) and decoding the value cost a
 * signed-in request about as much as its session's database read (ADR 0030, amended), and a
 * client sends the same header request after request. Keyed by the whole header, per cookie
 * (so per secret), the answer is the one `parse` gave it; only headers that carried a valid
 * session are kept, at most VERIFIED_COOKIES of them (all forgotten at once when full), none
 * longer than VERIFIED_HEADER_CHARS. The session's expiry and sign-out stay with the database
 * read, which every request still makes.
 */
const VERIFIED_COOKIES = 1_000;
const VERIFIED_HEADER_CHARS = 4_096;
const verifiedCookies = new WeakMap<SessionCookie, Map<string, string>>();

async function readSessionToken(request: RequestLike): Promise<string | null> {
  const header = request.headers.get('Cookie');
  if (!header) return null;
  const cookie = sessionCookie();
  let verified = verifiedCookies.get(cookie);
  if (!verified) {
    verified = new Map();
    verifiedCookies.set(cookie, verified);
  }
  const known = verified.get(header);
  if (known !== undefined) return known;
  const value: unknown = await cookie.parse(header);
  if (typeof value !== 'string' || value.length === 0) return null;
  if (header.length <= VERIFIED_HEADER_CHARS) {
    if (verified.size >= VERIFIED_COOKIES) verified.clear();
    verified.set(header, value);
  }
  return value;
}

/** Starts a server-side session; returns the Set-Cookie header that carries its token. */
export async function createSession(userId: string): Promise<string> {
  const { sessions } = tables;
  const token = newSecretToken();
  await database()
    .insert(sessions)
    .values({ id: hashToken(token), userId, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  return sessionCookie().serialize(token);
}

/**
 * Every request's query, built and prepared once per database. `now` is a Date mapped by the
 * column as a plain value would be (SQLite's milliseconds, PostgreSQL's timestamp): a bare
 * placeholder would reach the driver unmapped.
 */
const sessionUserQuery = preparedQuery((db, { sessions, users }) =>
  db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('id')),
        gt(sessions.expiresAt, sql`${sql.param(sql.placeholder('now'), sessions.expiresAt)}`),
      ),
    )
    .prepare(),
);

/**
 * One session read per request: Remix hands each loader (root's, the page's) its own copy of
 * the request but the same load context, so the answer is kept on the context.
 */
const readsOfRequest = new WeakMap<AppLoadContext, Promise<User | null>>();

/** The signed-in user, or null. Identity comes only from the session cookie. */
export function getSessionUser(
  request: RequestLike,
  context?: AppLoadContext,
): Promise<User | null> {
  if (!context) return readSessionUser(request);
  let read = readsOfRequest.get(context);
  if (!read) {
    read = readSessionUser(request);
    readsOfRequest.set(context, read);
  }
  return read;
}

async function readSessionUser(request: RequestLike): Promise<User | null> {
  const token = await readSessionToken(request);
  if (!token) return null;
  const [row] = await sessionUserQuery().execute({ id: hashToken(token), now: new Date() });
  return row?.user ?? null;
}

/** Ends this request's session on the server; returns the header that clears the cookie. */
export async function destroySession(request: Request): Promise<string> {
  const token = await readSessionToken(request);
  if (token) {
    const { sessions } = tables;
    await database()
      .delete(sessions)
      .where(eq(sessions.id, hashToken(token)));
  }
  return sessionCookie().serialize('', { maxAge: 0 });
}

function safeRedirectTarget(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** For pages: a visitor is sent to /signin and brought back afterwards. */
export async function requireUser(request: Request, context?: AppLoadContext): Promise<User> {
  const user = await getSessionUser(request, context);
  if (!user) {
    const params = new URLSearchParams({ redirectTo: safeRedirectTarget(request) });
    throw redirect(`/signin?${params}`);
  }
  return user;
}

/** For pages only visitors use (sign-in, sign-up, forgot, reset). */
export async function requireAnonymous(request: Request) {
  if (await getSessionUser(request)) throw redirect('/home');
}

/** For admin pages: visitors go to /signin, members to /home. */
export async function requireAdmin(request: Request): Promise<User> {
  const user = await requireUser(request);
  if (!isAdmin(user)) throw redirect('/home');
  return user;
}

/**
 * For the install's settings: a visitor goes to /signin; anyone but the main admin, admins
 * included, is told there is no such page (404), so the page does not say it exists.
 */
export async function requireMainAdmin(request: Request): Promise<User> {
  const user = await requireUser(request);
  if (!isMainAdminRole(user.role)) throw new Response('Not Found', { status: 404 });
  return user;
}

const SIGN_IN_MESSAGE = 'Please sign in';
export const INVALID_TOKEN_MESSAGE =
  'The API token is not valid (revoked, or ended by a password change)';

/**
 * The token of `Authorization: Bearer <token>` on an `/api` path (ADR 0035): undefined when the
 * request has none (or is not for the API), '' when the header is there but malformed.
 */
function apiBearerToken(request: RequestLike): string | undefined {
  const header = request.headers.get('Authorization');
  if (header === null || !new URL(request.url).pathname.startsWith('/api/')) return undefined;
  return /^Bearer +([\x21-\x7e]+) *$/i.exec(header)?.[1] ?? '';
}

/**
 * Failed authentications on the API (ADR 0057), counted per client address and per token prefix
 * (the token's first 12 characters: a revoked token retried from many addresses), answered 429
 * with Retry-After past the limit. Only failures count and only failures are refused: a valid
 * token or session still works from a throttled address, so a stranger's guessing never locks a
 * member out. Guessing a token (256 random bits) is hopeless anyway; this stops the flood.
 */
export const FAILED_AUTH_LIMITS = {
  ip: { name: 'api-auth-failed:ip', max: 100, windowSeconds: 10 * 60 },
  token: { name: 'api-auth-failed:token', max: 10, windowSeconds: 10 * 60 },
} satisfies Record<string, RateLimit>;

const TOO_MANY_FAILED_AUTH_MESSAGE =
  'Too many requests without valid credentials. Please wait and sign in or check your API token.';

async function refuseAuthentication(
  refusal: Response,
  context: AppLoadContext | undefined,
  token: string | undefined,
): Promise<never> {
  const results = await Promise.all([
    hit(FAILED_AUTH_LIMITS.ip, context ? clientIp(context) : 'unknown'),
    ...(token ? [hit(FAILED_AUTH_LIMITS.token, token.slice(0, 12))] : []),
  ]);
  const blocked = results.filter((result) => !result.allowed);
  if (blocked.length === 0) throw refusal;
  const wait = Math.max(...blocked.map((result) => result.retryAfterSeconds));
  throw apiError(429, TOO_MANY_FAILED_AUTH_MESSAGE, {
    code: 'rate_limited',
    headers: { 'Retry-After': String(wait) },
  });
}

/**
 * For /api routes: the member of the request's API token when it carries one (then the cookie
 * is not read at all), else of its session cookie; a JSON 401 instead of a redirect. A token that
 * does not exist is refused, never taken as "signed out".
 */
export async function requireApiUser(
  request: RequestLike,
  context?: AppLoadContext,
): Promise<User> {
  const token = apiBearerToken(request);
  if (token !== undefined) {
    const user = token ? await userOfApiToken(token) : null;
    if (!user)
      return refuseAuthentication(
        apiError(401, INVALID_TOKEN_MESSAGE, {
          code: 'invalid_token',
          headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
        }),
        context,
        token,
      );
    return user;
  }
  const user = await getSessionUser(request, context);
  // RFC 6750 §3: a request without credentials is told the scheme, without an error code.
  if (!user)
    return refuseAuthentication(
      apiError(401, SIGN_IN_MESSAGE, {
        code: 'authentication_required',
        headers: { 'WWW-Authenticate': 'Bearer' },
      }),
      context,
      undefined,
    );
  return user;
}

/** For admin /api routes: an admin's session or an admin's own API token (403 for a member's). */
export async function requireApiAdmin(request: Request, context?: AppLoadContext): Promise<User> {
  const user = await requireApiUser(request, context);
  if (!isAdmin(user)) throw apiError(403, 'Admins only', { code: 'forbidden' });
  return user;
}

/** After sign-in or sign-up: the session cookie, a welcome toast, and on to where the member was going. */
export async function signedInRedirect(
  session: { message: string; cookie: string; deviceCookie?: string },
  redirectTo: unknown,
) {
  const to = safeRedirect(typeof redirectTo === 'string' ? redirectTo : null, '/home');
  return redirect(to, {
    headers: withCookies(
      session.cookie,
      session.deviceCookie,
      await toastHeader({ type: 'success', message: session.message }),
    ),
  });
}
