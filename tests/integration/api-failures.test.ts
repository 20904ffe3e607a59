import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { post, get, settle, uniqueEmail, uniqueIp } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import * as apiContact from '~/routes/api/api.contact';
import * as apiCourse from '~/routes/api/api.course';
import * as apiCourses from '~/routes/api/api.courses';
import * as apiGetUsers from '~/routes/api/api.getusers';
import * as apiPrompt from '~/routes/api/api.prompt';
import * as apiSignin from '~/routes/api/api.signin';
import { createSession, FAILED_AUTH_LIMITS } from '~/utils/auth.server';
import { insertApiToken } from '~/models/api-tokens.server';
import { database, tables } from '~/utils/database.server';

/**
 * What an API client reads of a failure (ADR 0057): the message, a code to act on, the field at
 * fault; and the small contract slips of issue 42 (course type names, admin paging, image URLs).
 */
async function member(role: 'member' | 'admin' = 'member') {
  const user = await createUser({
    email: uniqueEmail('failures'),
    name: 'Failure Reader',
    password: 'long-enough-password',
  });
  if (role === 'admin') {
    const { users } = tables;
    await database().update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  }
  return { user, cookie: (await createSession(user.id)).split(';')[0]! };
}

async function read(result: Promise<unknown>) {
  const response = (await settle(result)) as Response;
  return {
    status: response.status,
    headers: response.headers,
    // The tests read into the JSON they expect.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: (await response.json()) as any,
  };
}

describe('an /api failure', () => {
  it('names the field at fault with a code, and malformed JSON is told apart', async () => {
    const missing = await read(post(apiSignin.action, '/api/signin', { email: 'a@example.com' }));
    expect(missing).toMatchObject({
      status: 400,
      body: { success: false, code: 'invalid_request', param: 'password' },
    });
    const malformed = await read(
      post(
        apiSignin.action,
        '/api/signin',
        {},
        {
          raw: { body: '{"email": "a@example.com",', contentType: 'application/json' },
        },
      ),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, code: 'invalid_json' });
    expect(malformed.body.message).toMatch(/not valid JSON/);
    expect(malformed.body.message).not.toMatch(/required fields/);
  });

  it('without credentials is a 401 that says how to authenticate', async () => {
    const refused = await read(post(apiPrompt.action, '/api/prompt', { prompt: 'Astronomy' }));
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('authentication_required');
    expect(refused.headers.get('WWW-Authenticate')).toBe('Bearer');
    const request = new Request('http://localhost/api/prompt', {
      method: 'POST',
      headers: { Authorization: 'Bearer cgk_made_up', 'Content-Type': 'application/json' },
      body: '{"prompt":"Astronomy"}',
    });
    const bad = await read(apiPrompt.action({ request, params: {}, context: {} }));
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('invalid_token');
    expect(bad.headers.get('WWW-Authenticate')).toBe('Bearer error="invalid_token"');
  });
});

describe('POST /api/course', () => {
  it("takes the spec's course type names, as documented", async () => {
    const { cookie } = await member();
    const content = JSON.stringify({
      rust: [
        {
          title: 'Basics',
          subtopics: [
            { title: 'Ownership', theory: '<p>x</p>', youtube: '', image: '', done: false },
          ],
        },
      ],
    });
    const saved = await read(
      post(
        apiCourse.action,
        '/api/course',
        { mainTopic: 'Rust', type: 'text & image course', content },
        { cookie },
      ),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const wrong = await read(
      post(
        apiCourse.action,
        '/api/course',
        { mainTopic: 'Rust', type: 'audio course', content },
        { cookie },
      ),
    );
    expect(wrong.body).toMatchObject({ code: 'invalid_request', param: 'type' });
  });
});

describe('the admin lists', () => {
  it('refuse a pageSize outside 1–100 and link the other pages', async () => {
    const { cookie } = await member('admin');
    for (const pageSize of ['1000', 'abc', '0'])
      expect(
        await read(get(apiGetUsers.loader, `/api/getusers?pageSize=${pageSize}`, { cookie })),
      ).toMatchObject({ status: 400, body: { code: 'invalid_request', param: 'pageSize' } });
    expect(
      (await read(get(apiGetUsers.loader, '/api/getusers?page=x', { cookie }))).body.param,
    ).toBe('page');
    await member();
    await member();
    const page = await read(
      get(apiGetUsers.loader, '/api/getusers?page=2&pageSize=1&q=', { cookie }),
    );
    expect(page.status).toBe(200);
    const link = page.headers.get('Link')!;
    expect(link).toContain('</api/getusers?page=1&pageSize=1&q=>; rel="first"');
    expect(link).toContain('</api/getusers?page=1&pageSize=1&q=>; rel="prev"');
    expect(link).toContain('</api/getusers?page=3&pageSize=1&q=>; rel="next"');
    expect(link).toMatch(/rel="last"$/);
  });
});

/** GET /api/courses with a bearer token from `ip`. */
function listWith(token: string, ip: string) {
  const request = new Request('http://localhost/api/courses', {
    headers: { Authorization: `Bearer ${token}` },
  });
  return read(apiCourses.loader({ request, params: {}, context: { clientIp: ip } }));
}

describe('failed authentication', () => {
  it('is throttled per address: 429 with Retry-After, while a valid token still works', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i <= FAILED_AUTH_LIMITS.ip.max; i += 1)
      statuses.push((await listWith(`cgk_guess${i}_${uniqueIp()}`, ip)).status);
    expect(statuses.slice(0, FAILED_AUTH_LIMITS.ip.max).every((s) => s === 401)).toBe(true);
    const refused = await listWith('cgk_one_more_guess', ip);
    expect(refused).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    // No credentials at all count too (the original client retrying without a token).
    expect(
      (await read(post(apiPrompt.action, '/api/prompt', { prompt: 'x' }, { ip }))).status,
    ).toBe(429);
    const { user } = await member();
    const { token } = (await insertApiToken(user.id, 'throttled address'))!;
    expect((await listWith(token, ip)).status).toBe(200);
  });

  it('is throttled per token prefix, whatever the address', async () => {
    const revoked = 'cgk_samePrefix_';
    const statuses: number[] = [];
    for (let i = 0; i <= FAILED_AUTH_LIMITS.token.max; i += 1)
      statuses.push((await listWith(`${revoked}${i}`, uniqueIp())).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FAILED_AUTH_LIMITS.token.max);
  });
});

describe('a limited route', () => {
  it('says where its client stands: RateLimit-Limit, -Remaining and -Reset', async () => {
    const ip = uniqueIp();
    const body = {
      fname: 'Ada',
      lname: 'Lovelace',
      email: 'ada@example.com',
      phone: '5550100',
      msg: 'Hello',
    };
    const first = await read(post(apiContact.action, '/api/contact', body, { ip }));
    expect(first.status).toBe(200);
    expect(first.headers.get('RateLimit-Limit')).toBe('5');
    expect(first.headers.get('RateLimit-Remaining')).toBe('4');
    expect(Number(first.headers.get('RateLimit-Reset'))).toBeGreaterThan(0);
    const second = await read(post(apiContact.action, '/api/contact', body, { ip }));
    expect(second.headers.get('RateLimit-Remaining')).toBe('3');
  });
});
