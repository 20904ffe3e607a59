import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailsTo, get, pageResult, post, settle, uniqueEmail } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import { listApiTokens } from '~/models/api-tokens.server';
import * as apiCourses from '~/routes/api/api.courses';
import * as apiGetUsers from '~/routes/api/api.getusers';
import * as homePage from '~/routes/member/home';
import * as profilePage from '~/routes/member/profile';
import { TOO_MANY_TOKENS_MESSAGE } from '~/services/api-tokens.server';
import { createSession, INVALID_TOKEN_MESSAGE } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';
import { waitForRedis } from '~/utils/redis.server';

// The rate limits a password change passes live in Redis: let the connection come up first.
beforeAll(() => waitForRedis());

/**
 * Personal API tokens, made and revoked on /profile (ADR 0035): shown once, kept hashed, at most
 * ten, ended by a new password; they act as their member on /api routes only.
 */
async function member(role: 'member' | 'admin' = 'member') {
  const password = 'long-enough-password';
  const user = await createUser({ email: uniqueEmail('tokens'), name: 'Token Owner', password });
  if (role === 'admin') {
    const { users } = tables;
    await database().update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  }
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie, password };
}

async function makeToken(cookie: string, tokenName = 'script') {
  const result = pageResult(
    await post(
      profilePage.action,
      '/profile',
      { intent: 'create-token', tokenName },
      {
        cookie,
        as: 'form',
      },
    ),
  );
  return result as { status: number; data: { success: boolean; message: string; token?: string } };
}

async function listWith(token: string, cookie?: string) {
  const request = new Request('http://localhost/api/courses', {
    headers: { Authorization: `Bearer ${token}`, ...(cookie ? { Cookie: cookie } : {}) },
  });
  const response = await apiCourses.loader({ request, params: {}, context: {} });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('API tokens on /profile', () => {
  it('are shown once, kept hashed, listed by name, and their owner is told by email', async () => {
    const { user, cookie } = await member();
    const made = await makeToken(cookie, 'Laptop');
    expect(made.status).toBe(200);
    const token = made.data.token!;
    expect(token).toMatch(/^cgk_[A-Za-z0-9_-]{43}$/);
    expect(await listWith(token)).toMatchObject({ status: 200, body: [] });
    const [listed] = await listApiTokens(user.id);
    expect(listed).toMatchObject({ name: 'Laptop', lastUsedAt: expect.any(Date) });
    expect(JSON.stringify(listed)).not.toContain(token.slice(4, 20));
    const { tokens } = (await profilePage.loader({
      request: new Request('http://localhost/profile', { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    })) as { tokens: { name: string }[] };
    expect(tokens.map((t) => t.name)).toEqual(['Laptop']);
    expect(JSON.stringify(tokens)).not.toContain(token);
    expect((await emailsTo(user.email)).some((mail) => /API token/.test(mail.subject))).toBe(true);
  });

  it('are at most ten, and a revoked one is refused at once', async () => {
    const { user, cookie } = await member();
    const tokens: string[] = [];
    for (let i = 0; i < 10; i += 1) tokens.push((await makeToken(cookie, `t${i}`)).data.token!);
    const eleventh = await makeToken(cookie, 'one too many');
    expect(eleventh).toMatchObject({ status: 409, data: { message: TOO_MANY_TOKENS_MESSAGE } });
    expect(await listApiTokens(user.id)).toHaveLength(10);

    const victim = (await listApiTokens(user.id)).find((t) => t.name === 't3')!;
    const revoked = pageResult(
      await post(
        profilePage.action,
        '/profile',
        { intent: 'revoke-token', tokenId: victim.id },
        {
          cookie,
          as: 'form',
        },
      ),
    );
    expect(revoked).toMatchObject({ status: 200, data: { success: true } });
    expect(await listWith(tokens[3]!)).toMatchObject({
      status: 401,
      body: { success: false, message: INVALID_TOKEN_MESSAGE },
    });
    expect((await listWith(tokens[4]!)).status).toBe(200);
    // Another member cannot revoke it.
    const other = await member();
    const foreign = pageResult(
      await post(
        profilePage.action,
        '/profile',
        { intent: 'revoke-token', tokenId: (await listApiTokens(user.id))[0]!.id },
        { cookie: other.cookie, as: 'form' },
      ),
    );
    expect(foreign.status).toBe(404);
  });

  it('end with a new password, like every session', async () => {
    const { user, cookie, password } = await member();
    const token = (await makeToken(cookie)).data.token!;
    const changed = pageResult(
      await post(
        profilePage.action,
        '/profile',
        {
          mName: user.name,
          email: user.email,
          password: 'a-brand-new-password',
          currentPassword: password,
        },
        { cookie, as: 'form' },
      ),
    );
    expect(changed).toMatchObject({ status: 200, data: { success: true } });
    expect((await listWith(token)).status).toBe(401);
    expect(await listApiTokens(user.id)).toEqual([]);
  });

  it('act on /api routes only, before any cookie, and admin routes need an admin’s token', async () => {
    const owner = await member();
    const token = (await makeToken(owner.cookie)).data.token!;
    // A page is not the API: a token does not sign anyone in there.
    const home = await settle(
      homePage.loader({
        request: new Request('http://localhost/home', {
          headers: { Authorization: `Bearer ${token}` },
        }),
        params: {},
        context: {},
      }),
    );
    expect((home as Response).status).toBe(302);
    // A bad token is refused even beside a good cookie: the token is what the client meant.
    expect((await listWith('cgk_forged', owner.cookie)).status).toBe(401);

    const headers = { Authorization: `Bearer ${token}` };
    const asMember = (await settle(
      apiGetUsers.loader({
        request: new Request('http://localhost/api/getusers', { headers }),
      }),
    )) as Response;
    expect(asMember.status).toBe(403);
    const admin = await member('admin');
    const adminToken = (await makeToken(admin.cookie)).data.token!;
    const asAdmin = (await get(apiGetUsers.loader, '/api/getusers')) as Response;
    expect(asAdmin.status).toBe(401);
    const allowed = (await apiGetUsers.loader({
      request: new Request('http://localhost/api/getusers', {
        headers: { Authorization: `Bearer ${adminToken}` },
      }),
    })) as Response;
    expect(allowed.status).toBe(200);
  });
});
