import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import { insertCourse } from '../support/courses';
import { closeAppDatabases, createMember, sessionCookieValue } from '../support/members';
import { CURSOR_MESSAGE, LIMIT_MESSAGE } from '~/services/course-list.server';

/**
 * GET /api/courses through the production server, which answers it without Remix's request
 * handling (ADR 23): the same statuses, JSON, paging headers and security headers as any route.
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

describe('GET /api/courses over HTTP', () => {
  it('pages with X-Next-Cursor and Link, refuses bad input and visitors, with the usual headers', async () => {
    const member = await createMember(app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(
        await insertCourse(app, member.id, {
          mainTopic: `Http ${i}`,
          lessons: 1,
          allDone: false,
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const cookie = `__session=${await sessionCookieValue(app, member)}`;
    const get = (path: string, headers: Record<string, string> = { Cookie: cookie }) =>
      fetch(`${app.baseURL}${path}`, { headers });

    const first = await get('/api/courses?limit=2');
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(first.headers.get('Content-Security-Policy')).toContain("default-src 'self'");
    expect(first.headers.get('Cache-Control')).toBe('private, no-store');
    const cursor = first.headers.get('X-Next-Cursor')!;
    expect(first.headers.get('Link')).toBe(`</api/courses?limit=2&cursor=${cursor}>; rel="next"`);
    const firstBody = (await first.json()) as { _id: string; user: string }[];
    expect(firstBody.map((c) => c._id)).toEqual([ids[2], ids[1]]);
    expect(firstBody[0]!.user).toBe(member.id);

    const second = await get(`/api/courses?limit=2&cursor=${cursor}`);
    expect(((await second.json()) as { _id: string }[]).map((c) => c._id)).toEqual([ids[0]]);
    expect(second.headers.get('X-Next-Cursor')).toBeNull();

    const badLimit = await get('/api/courses?limit=500');
    expect(badLimit.status).toBe(400);
    expect(await badLimit.json()).toMatchObject({ success: false, message: LIMIT_MESSAGE });
    const badCursor = await get('/api/courses?cursor=abc');
    expect(badCursor.status).toBe(400);
    expect(await badCursor.json()).toMatchObject({ success: false, message: CURSOR_MESSAGE });
    const visitor = await get('/api/courses', {});
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toMatchObject({ success: false, message: 'Please sign in' });
  });

  it('compresses a list above a kilobyte for clients that accept gzip, and answers HEAD', async () => {
    const member = await createMember(app);
    for (let i = 0; i < 10; i += 1)
      await insertCourse(app, member.id, {
        mainTopic: `Gzip ${i}`,
        lessons: 1,
        allDone: false,
      });
    const cookie = `__session=${await sessionCookieValue(app, member)}`;
    const url = `${app.baseURL}/api/courses`;

    const plain = await fetch(url, { headers: { Cookie: cookie, 'Accept-Encoding': 'identity' } });
    const plainBody = await plain.text();
    expect(Buffer.byteLength(plainBody)).toBeGreaterThan(1024);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(plain.headers.get('Content-Length')).toBe(String(Buffer.byteLength(plainBody)));

    const gzipped = await fetch(url, { headers: { Cookie: cookie, 'Accept-Encoding': 'gzip' } });
    expect(gzipped.headers.get('Content-Encoding')).toBe('gzip');
    expect(gzipped.headers.get('Vary')).toContain('Accept-Encoding');
    expect(await gzipped.text()).toBe(plainBody);

    const head = await fetch(url, { method: 'HEAD', headers: { Cookie: cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(head.headers.get('Cache-Control')).toBe('private, no-store');
    expect(await head.text()).toBe('');

    const oddHost = await new Promise<number>((resolve, reject) => {
      const { port } = new URL(app.baseURL);
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/courses',
            headers: { Cookie: cookie, Host: 'a b' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    // A Host that is not a host is refused before any route, the direct ones too (issue 31).
    expect(oddHost).toBe(400);
  });
});
