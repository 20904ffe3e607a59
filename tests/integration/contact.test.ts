import type { AppLoadContext } from '@remix-run/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { action as apiAction, loader as apiLoader } from '~/routes/api/api.contact';
import { action as pageAction } from '~/routes/public/contact';
import { database, tables } from '~/utils/database.server';
import { waitForRedis } from '~/utils/redis.server';

// The rate limit lives in Redis; fail-open would hide it, so wait for the connection.
beforeAll(() => waitForRedis());

const REQUIRED = 'Please fill in all required fields';

const valid = {
  fname: 'Ada',
  lname: 'Lovelace',
  email: 'Ada@Example.com',
  phone: '4412345678',
  msg: 'Can I generate a course in French?',
};

let ipCounter = 0;
/** Each test sends from its own address, so the per-IP limit of one never touches another. */
function newIp() {
  ipCounter += 1;
  return `10.0.0.${ipCounter}`;
}

async function postJson(body: unknown, ip: string) {
  const request = new Request('http://localhost/api/contact', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const response = await apiAction({
    request,
    context: { clientIp: ip } as AppLoadContext,
    params: {},
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { success: boolean; message: string },
  };
}

const storedCount = async () => (await database().select().from(tables.contacts)).length;

describe('POST /api/contact', () => {
  it('stores a valid message and answers success with a message', async () => {
    const before = await storedCount();
    const result = await postJson({ ...valid, fname: '  Ada  ' }, newIp());
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      success: true,
      message: 'Thank you! Your message has been sent.',
    });
    expect(await storedCount()).toBe(before + 1);
    const row = (await database().select().from(tables.contacts)).find(
      (r) => r.message === valid.msg,
    );
    expect(row).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '4412345678',
      message: valid.msg,
    });
  });

  it('requires every field, blank counting as missing', async () => {
    const before = await storedCount();
    for (const field of Object.keys(valid)) {
      const missing: Record<string, string> = { ...valid };
      delete missing[field];
      await expect(postJson(missing, newIp())).resolves.toMatchObject({
        status: 400,
        body: { success: false, message: REQUIRED },
      });
      await expect(postJson({ ...valid, [field]: '   ' }, newIp())).resolves.toMatchObject({
        status: 400,
        body: { success: false, message: REQUIRED },
      });
    }
    await expect(postJson({}, newIp())).resolves.toMatchObject({
      status: 400,
      body: { message: REQUIRED },
    });
    // A missing field is reported before a malformed one.
    await expect(
      postJson({ ...valid, email: 'not-an-email', msg: '' }, newIp()),
    ).resolves.toMatchObject({ status: 400, body: { message: REQUIRED } });
    // Non-text values are not text.
    await expect(postJson({ ...valid, phone: 12345678 }, newIp())).resolves.toMatchObject({
      status: 400,
      body: { message: REQUIRED },
    });
    expect(await storedCount()).toBe(before);
  });

  it('rejects a malformed email or phone and over-long fields, storing nothing', async () => {
    const before = await storedCount();
    const cases: [Record<string, string>, string][] = [
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ email: 'a@b' }, 'Please enter a valid email address'],
      [{ phone: '+44 1234 5678' }, 'Please enter a phone number of 5 to 15 digits, digits only'],
      [{ phone: '12ab5678' }, 'Please enter a phone number of 5 to 15 digits, digits only'],
      [{ phone: '1234' }, 'Please enter a phone number of 5 to 15 digits, digits only'],
      [{ phone: '1234567890123456' }, 'Please enter a phone number of 5 to 15 digits, digits only'],
      [{ fname: 'a'.repeat(101) }, 'First Name must be at most 100 characters'],
      [{ lname: 'a'.repeat(101) }, 'Last Name must be at most 100 characters'],
      [{ msg: 'a'.repeat(5001) }, 'Message must be at most 5000 characters'],
    ];
    for (const [change, message] of cases) {
      await expect(postJson({ ...valid, ...change }, newIp())).resolves.toMatchObject({
        status: 400,
        body: { success: false, message },
      });
    }
    expect(await storedCount()).toBe(before);
  });

  it('accepts the longest allowed values', async () => {
    const result = await postJson(
      {
        ...valid,
        fname: 'a'.repeat(100),
        lname: 'b'.repeat(100),
        phone: '123456789012345',
        msg: 'c'.repeat(5000),
      },
      newIp(),
    );
    expect(result.status).toBe(200);
  });

  it('limits each address to five messages an hour, with a clear 429', async () => {
    const ip = newIp();
    const before = await storedCount();
    for (let i = 0; i < 5; i += 1) {
      const ok = await postJson({ ...valid, msg: `message ${i}` }, ip);
      expect(ok.status).toBe(200);
    }
    const refused = await postJson({ ...valid, msg: 'one too many' }, ip);
    expect(refused.status).toBe(429);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toMatch(/too many messages\. Please try again in \d+ minutes?\./);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await storedCount()).toBe(before + 5);

    // Another address is not affected.
    await expect(postJson(valid, newIp())).resolves.toMatchObject({ status: 200 });
  });

  it('does not count malformed messages against the address', async () => {
    const ip = newIp();
    for (let i = 0; i < 8; i += 1) {
      await expect(postJson({ ...valid, email: 'typo' }, ip)).resolves.toMatchObject({
        status: 400,
      });
    }
    await expect(postJson(valid, ip)).resolves.toMatchObject({ status: 200 });
  });

  it('answers 405 to other methods', async () => {
    const response = apiLoader();
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
  });
});

describe('the /contact page action', () => {
  async function postForm(fields: Record<string, string>, ip: string) {
    const request = new Request('http://localhost/contact', {
      method: 'POST',
      body: new URLSearchParams(fields),
    });
    const result = (await pageAction({
      request,
      context: { clientIp: ip } as AppLoadContext,
      params: {},
    })) as unknown as {
      init: { status: number } | null;
      data: { success: boolean; message: string; fields?: Record<string, string> };
    };
    return { status: result.init?.status, data: result.data };
  }

  it('stores a form submission', async () => {
    const before = await storedCount();
    const result = await postForm({ ...valid, msg: 'sent from the page' }, newIp());
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({ success: true });
    expect(result.data.fields).toBeUndefined();
    expect(await storedCount()).toBe(before + 1);
  });

  it('gives back the typed values with the message when something is missing', async () => {
    const result = await postForm({ ...valid, lname: '' }, newIp());
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      success: false,
      message: REQUIRED,
      fields: { ...valid, lname: '' },
    });
  });
});
