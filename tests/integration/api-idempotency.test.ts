import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { settle, uniqueEmail, uniqueIp } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import * as apiCourse from '~/routes/api/api.course';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';
import { waitForRedis } from '~/utils/redis.server';

beforeAll(() => waitForRedis());

/**
 * Idempotency-Key on the API's creating POSTs (ADR 0057): a retried request with the same key
 * makes one course, whether the retry comes after the first answer or while it is still running.
 */
const content = (topic: string) =>
  JSON.stringify({
    [topic.toLowerCase()]: [
      {
        title: 'Basics',
        subtopics: [{ title: 'First', theory: '<p>x</p>', youtube: '', image: '', done: false }],
      },
    ],
  });

async function member() {
  const user = await createUser({
    email: uniqueEmail('idempotency'),
    name: 'Retrying Client',
    password: 'long-enough-password',
  });
  return { user, cookie: (await createSession(user.id)).split(';')[0]! };
}

async function createCourse(cookie: string, key: string | null, body: Record<string, unknown>) {
  const headers: Record<string, string> = { Cookie: cookie, 'Content-Type': 'application/json' };
  if (key !== null) headers['Idempotency-Key'] = key;
  const request = new Request('http://localhost/api/course', {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const response = (await settle(
    apiCourse.action({ request, params: {}, context: { clientIp: uniqueIp() } }),
  )) as Response;
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { courseId?: string; code?: string; param?: string },
  };
}

async function coursesOf(userId: string) {
  const { courses } = tables;
  return database().select({ id: courses.id }).from(courses).where(eq(courses.userId, userId));
}

describe('Idempotency-Key on POST /api/course', () => {
  it('sent twice at once makes one course, and both answers name it', async () => {
    const { user, cookie } = await member();
    const body = { mainTopic: 'Rust', type: 'text', content: content('Rust') };
    const [first, second] = await Promise.all([
      createCourse(cookie, 'key-concurrent-1', body),
      createCourse(cookie, 'key-concurrent-1', body),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.courseId).toBe(first.body.courseId);
    expect(await coursesOf(user.id)).toHaveLength(1);
    const replayed = [first, second].filter((a) => a.headers.get('Idempotent-Replayed'));
    expect(replayed).toHaveLength(1);
  });

  it('retried later answers the first answer again; another body with the key is a 422', async () => {
    const { user, cookie } = await member();
    const body = { mainTopic: 'Go', type: 'text', content: content('Go') };
    const first = await createCourse(cookie, 'key-later', body);
    const again = await createCourse(cookie, 'key-later', body);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const other = await createCourse(cookie, 'key-later', { ...body, mainTopic: 'Zig' });
    expect(other).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused', param: 'Idempotency-Key' },
    });
    // Without a key, each request is its own; a key is the member's own.
    await createCourse(cookie, null, body);
    const stranger = await member();
    expect(
      (await createCourse(stranger.cookie, 'key-later', body)).headers.get('Idempotent-Replayed'),
    ).toBeNull();
    expect(await coursesOf(user.id)).toHaveLength(2);
  });
});
