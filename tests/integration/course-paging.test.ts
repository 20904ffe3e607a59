import { describe, expect, it } from 'vitest';
import * as apiCourses from '~/routes/api/api.courses';
import * as homePage from '~/routes/member/home';
import { createCourseWithLessons } from '~/models/courses.server';
import { createUser } from '~/models/users.server';
import {
  CURSOR_MESSAGE,
  courseRecordPage,
  decodeCursor,
  LIMIT_MESSAGE,
} from '~/services/course-list.server';
import { createSession } from '~/utils/auth.server';

/**
 * Keyset pages of a member's courses: GET /api/courses (`limit`, `cursor`, `X-Next-Cursor`,
 * `Link`) and /home's "Load more", called as a request would call them.
 */
let counter = 0;
async function member() {
  counter += 1;
  const user = await createUser({
    email: `paging-${counter}@example.com`,
    name: `Member ${counter}`,
    password: 'long-enough-password',
    plan: 'free',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

/**
 * Courses a millisecond apart at least, as a member's are: within one millisecond the order is
 * the ids' (random), and the expectations below are in order of creation.
 */
async function addCourses(userId: string, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const previous = Date.now();
    while (Date.now() === previous) {
      // a millisecond passes
    }
    const created = await createCourseWithLessons({
      userId,
      mainTopic: `${prefix} ${i}`,
      type: 'text',
      topics: [{ title: 'Only', lessons: [{ title: 'One', theory: '<p>x</p>' }] }],
    });
    ids.push(created.course.id);
  }
  return ids;
}

async function list(path: string, cookie: string) {
  const request = new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
  const response = await apiCourses.loader({ request, params: {}, context: {} });
  // The API's course records, read field by field below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body = (await response.json()) as any;
  return { status: response.status, headers: response.headers, body };
}

type Record_ = { _id: string; date: string; mainTopic: string };

/** Follows X-Next-Cursor (checking Link says the same) until the last page. */
async function walk(cookie: string, limit: number) {
  const pages: Record_[][] = [];
  let path = `/api/courses?limit=${limit}`;
  for (;;) {
    const page = await list(path, cookie);
    expect(page.status).toBe(200);
    pages.push(page.body as Record_[]);
    const cursor = page.headers.get('X-Next-Cursor');
    if (!cursor) {
      expect(page.headers.get('Link')).toBeNull();
      return pages;
    }
    expect(page.headers.get('Link')).toBe(
      `</api/courses?limit=${limit}&cursor=${cursor}>; rel="next"`,
    );
    path = `/api/courses?limit=${limit}&cursor=${cursor}`;
  }
}

const newestFirst = (records: Record_[]) =>
  records.every((record, i) => i === 0 || records[i - 1]!.date >= record.date);

describe('GET /api/courses pages', () => {
  it('covers every course exactly once, newest first, while courses are being created', async () => {
    const { user, cookie } = await member();
    const older = await addCourses(user.id, 7, 'Older');

    const first = await list('/api/courses?limit=3', cookie);
    expect(first.body.map((c: Record_) => c._id)).toEqual(older.slice(-3).reverse());
    // Created between two pages: newer than the cursor, so not on the pages after it.
    const newer = await addCourses(user.id, 2, 'Newer');
    const seen: string[] = first.body.map((c: Record_) => c._id);
    let cursor = first.headers.get('X-Next-Cursor');
    while (cursor) {
      const page = await list(`/api/courses?limit=3&cursor=${cursor}`, cookie);
      seen.push(...page.body.map((c: Record_) => c._id));
      cursor = page.headers.get('X-Next-Cursor');
    }
    expect(seen).toEqual([...older].reverse());

    const pages = await walk(cookie, 4);
    expect(pages.map((page) => page.length)).toEqual([4, 4, 1]);
    const all = pages.flat();
    expect(all.map((c) => c._id)).toEqual([...older, ...newer].reverse());
    expect(newestFirst(all)).toBe(true);
    // The body keeps the spec's shape: an array of course records.
    expect(all[0]).toMatchObject({ _id: newer[1], user: user.id, mainTopic: 'Newer 1' });
  });

  it('defaults to 100 (a normal member’s every course on one page), takes 1 to 100, and answers 400 with a message otherwise', async () => {
    const { user, cookie } = await member();
    await addCourses(user.id, 102, 'Many');
    const byDefault = await list('/api/courses', cookie);
    expect(byDefault.body).toHaveLength(100);
    expect(byDefault.headers.get('X-Next-Cursor')).toBeTruthy();
    expect((await list('/api/courses?limit=1', cookie)).body).toHaveLength(1);
    const rest = await list(
      `/api/courses?cursor=${byDefault.headers.get('X-Next-Cursor')}`,
      cookie,
    );
    expect(rest.body).toHaveLength(2);
    expect(rest.headers.get('X-Next-Cursor')).toBeNull();

    for (const limit of ['0', '101', '-1', 'ten', '2.5', '']) {
      const refused = await list(`/api/courses?limit=${limit}`, cookie);
      expect(refused, `limit=${limit}`).toMatchObject({
        status: 400,
        body: { success: false, message: LIMIT_MESSAGE },
      });
    }
  });

  it('ends a page early past its content budget, and the next page goes on from there', async () => {
    const { user } = await member();
    const ids = await addCourses(user.id, 3, 'Long');
    // A budget smaller than one course: a page still holds one, then ends.
    const first = await courseRecordPage(user.id, { limit: 100, after: null }, 1);
    expect(first.records.map((record) => record._id)).toEqual([ids[2]]);
    expect(first.nextCursor).toBeTruthy();
    const rest = await courseRecordPage(user.id, {
      limit: 100,
      after: decodeCursor(first.nextCursor!),
    });
    expect(rest.records.map((record) => record._id)).toEqual([ids[1], ids[0]]);
    expect(rest.nextCursor).toBeNull();
  });

  it('answers 400 to a cursor it did not make', async () => {
    const { cookie } = await member();
    for (const cursor of [
      'nonsense!',
      'bm90LWEta2V5',
      Buffer.from('12.x y').toString('base64url'),
    ]) {
      const refused = await list(`/api/courses?cursor=${encodeURIComponent(cursor)}`, cookie);
      expect(refused, cursor).toMatchObject({
        status: 400,
        body: { success: false, message: CURSOR_MESSAGE },
      });
    }
  });

  it("never shows another member's courses, whatever the cursor", async () => {
    const alice = await member();
    const bob = await member();
    const alices = await addCourses(alice.user.id, 5, 'Alice');
    const bobs = await addCourses(bob.user.id, 3, 'Bob');
    const aliceFirst = await list('/api/courses?limit=2', alice.cookie);
    const aliceCursor = aliceFirst.headers.get('X-Next-Cursor')!;
    // Alice's cursor in Bob's request pages Bob's own courses only.
    const bobWithIt = await list(`/api/courses?limit=100&cursor=${aliceCursor}`, bob.cookie);
    for (const record of bobWithIt.body as Record_[]) expect(bobs).toContain(record._id);
    const bobAll = (await walk(bob.cookie, 2)).flat().map((c) => c._id);
    expect(bobAll).toEqual([...bobs].reverse());
    const aliceAll = (await walk(alice.cookie, 2)).flat().map((c) => c._id);
    expect(aliceAll).toEqual([...alices].reverse());
  });
});

describe('/home pages', () => {
  async function home(path: string, cookie: string) {
    const request = new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
    try {
      return await homePage.loader({ request, params: {}, context: {} });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  it('shows 24 cards, then the rest after the cursor', async () => {
    const { user, cookie } = await member();
    const ids = (await addCourses(user.id, 30, 'Card')).reverse();
    const first = await home('/home', cookie);
    if (first instanceof Response) throw new Error(`answered ${first.status}`);
    expect(first.courses.map((c) => c.id)).toEqual(ids.slice(0, 24));
    expect(first.nextCursor).toBeTruthy();
    const second = await home(`/home?cursor=${first.nextCursor}`, cookie);
    if (second instanceof Response) throw new Error(`answered ${second.status}`);
    expect(second.courses.map((c) => c.id)).toEqual(ids.slice(24));
    expect(second.nextCursor).toBeNull();
    const bad = await home('/home?cursor=zzz', cookie);
    expect(bad instanceof Response && bad.status).toBe(400);
  });
});
