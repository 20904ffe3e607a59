import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { post, get, settle, uniqueEmail } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import * as apiCourse from '~/routes/api/api.course';
import * as apiGetUsers from '~/routes/api/api.getusers';
import * as apiPrompt from '~/routes/api/api.prompt';
import * as apiSignin from '~/routes/api/api.signin';
import { createSession } from '~/utils/auth.server';
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
