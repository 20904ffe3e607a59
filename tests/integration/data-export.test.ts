import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fillCourse } from '../support/member-data';
import { createUser, type User } from '~/models/users.server';
import * as apiExport from '~/routes/api/api.export';
import * as exportRoute from '~/routes/member/profile_.export[.zip]';
import { createApiToken } from '~/services/api-tokens.server';
import { createCourseFromContent, startOutline } from '~/services/course-generation.server';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';

/**
 * "Export my data" (issue 38, ADR 0060): the signed-in member's own data, and only theirs, in
 * one zip from /profile/export.zip and GET /api/export; anyone without credentials is refused.
 */

let counter = 0;
async function member() {
  counter += 1;
  const user = await createUser({
    email: `exporter-${counter}@example.com`,
    name: `Exporter ${counter}`,
    password: 'long-enough-password',
    plan: 'free',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

/** A member with a paid subscription and its receipt, a course full of their work, a document. */
async function busyMember() {
  const { user, cookie } = await member();
  await database()
    .insert(tables.subscriptions)
    .values({
      id: `sub-${user.id}`,
      userId: user.id,
      provider: 'paypal',
      providerSubscriptionId: `I-EXPORT${counter}`,
      plan: 'monthly',
      status: 'active',
      amountCents: 800,
      startedAt: new Date('2026-11-01T10:00:00Z'),
      customer: {
        email: user.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        address: '1 Analytical Street',
        postalCode: '10115',
        country: 'DE',
      },
    });
  const [receipt] = await database()
    .insert(tables.receipts)
    .values({
      subscriptionId: `sub-${user.id}`,
      userId: user.id,
      providerPaymentKey: `pay-${counter}`,
      plan: 'monthly',
      amountCents: 800,
      currency: 'USD',
      paidAt: new Date('2026-11-01T10:00:00Z'),
    })
    .returning({ number: tables.receipts.number });
  const course = await createCourseFromContent(user, {
    mainTopic: 'Tidal Physics',
    type: 'text',
    topics: [
      {
        title: 'The Moon',
        lessons: [
          { title: 'Gravity pulls', theory: '<p>The Moon pulls the sea towards it.</p>' },
          { title: 'Spring tides', theory: '<p>Sun and Moon in a line.</p>' },
        ],
      },
    ],
  });
  if (!course.ok) throw new Error(course.message);
  await fillCourse(database(), tables, user.id, course.value);
  const outline = await startOutline(user, {
    mainTopic: 'Harbour notes',
    subtopics: ['Charts'],
    topicCount: 5,
    type: 'text',
    material: { pasted: 'Harbour charts show the depth of water at the lowest tide. '.repeat(8) },
  });
  if (!outline.ok) throw new Error(outline.message);
  return { user, cookie, courseId: course.value, receiptNumber: receipt!.number };
}

async function settle(answer: Promise<Response>): Promise<Response> {
  try {
    return await answer;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const fromProfile = (cookie?: string, signal?: AbortSignal) =>
  settle(
    exportRoute.loader({
      request: new Request('http://localhost/profile/export.zip', {
        headers: cookie ? { Cookie: cookie } : {},
        signal,
      }),
      params: {},
      context: {},
    }),
  );

const fromApi = (token?: string) =>
  settle(
    apiExport.loader({
      request: new Request('http://localhost/api/export', {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      }),
      params: {},
      context: { clientIp: '10.7.7.7' },
    } as never),
  );

async function unzip(response: Response): Promise<Record<string, Uint8Array>> {
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toBe('application/zip');
  expect(response.headers.get('Content-Disposition')).toMatch(
    /^attachment; filename="[a-z0-9-]+-my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
  );
  return unzipSync(new Uint8Array(await response.arrayBuffer()));
}

const json = (files: Record<string, Uint8Array>, name: string) => {
  expect(files[name], name).toBeDefined();
  return JSON.parse(strFromU8(files[name]!)) as unknown;
};

describe('exporting one’s data', () => {
  it('gives the member one zip of their account, courses, work and documents, with a README', async () => {
    const { user, cookie, courseId, receiptNumber } = await busyMember();
    const files = await unzip(await fromProfile(cookie));
    const folder = `courses/tidal-physics-${courseId}`;
    const receipt = `account/receipts/receipt-${String(receiptNumber).padStart(6, '0')}.pdf`;
    const names = Object.keys(files);
    expect(names.slice(0, 3)).toEqual([
      'README.md',
      'account/profile.json',
      'account/subscriptions.json',
    ]);
    expect(names).toEqual(
      expect.arrayContaining([
        receipt,
        'outlines.json',
        `${folder}/course.json`,
        `${folder}/course.md`,
        `${folder}/notes.json`,
        `${folder}/tutor.json`,
        `${folder}/quiz-attempts.json`,
        `${folder}/flashcards.json`,
      ]),
    );
    const readme = strFromU8(files['README.md']!);
    for (const name of [
      'profile.json',
      'subscriptions.json',
      'course.json',
      'course.md',
      'flashcards.json',
    ])
      expect(readme).toContain(name);

    expect(json(files, 'account/profile.json')).toMatchObject({
      id: user.id,
      name: user.name,
      email: user.email,
      plan: 'free',
    });
    expect(
      JSON.stringify(files['account/profile.json'] && json(files, 'account/profile.json')),
    ).not.toMatch(/password|\$argon2/i);
    expect(json(files, 'account/subscriptions.json')).toEqual([
      expect.objectContaining({
        provider: 'paypal',
        plan: 'monthly',
        status: 'active',
        customer: expect.objectContaining({ lastName: 'Lovelace' }),
        receipts: [expect.objectContaining({ number: receiptNumber, file: receipt })],
      }),
    ]);
    expect(strFromU8(files[receipt]!.subarray(0, 5))).toBe('%PDF-');

    // The course as the API's course record, and as the Markdown download with the notes.
    const record = json(files, `${folder}/course.json`) as Record<string, unknown>;
    expect(record).toMatchObject({
      _id: courseId,
      user: user.id,
      mainTopic: 'Tidal Physics',
      type: 'text',
    });
    expect(JSON.parse(record.content as string)).toHaveProperty('tidal physics');
    const markdown = strFromU8(files[`${folder}/course.md`]!);
    expect(markdown).toContain('# Tidal Physics');
    expect(markdown).toContain('The Moon pulls the sea towards it.');
    expect(markdown).toContain('My own note');
    expect(json(files, `${folder}/notes.json`)).toEqual([
      { topic: 'The Moon', lesson: 'Gravity pulls', note: 'My own note' },
    ]);
    expect(json(files, `${folder}/tutor.json`)).toEqual([
      expect.objectContaining({ lesson: 'Gravity pulls', role: 'user', content: 'Why?' }),
      expect.objectContaining({ lesson: 'Gravity pulls', role: 'assistant', content: 'Because.' }),
    ]);
    expect(json(files, `${folder}/quiz-attempts.json`)).toEqual([
      expect.objectContaining({ score: 1, total: 1 }),
    ]);
    const cards = json(files, `${folder}/flashcards.json`) as {
      question: string;
      reviews: unknown[];
    }[];
    expect(cards.find((card) => card.question === 'Q?')?.reviews).toEqual([
      expect.objectContaining({ rating: 3, scheduledDays: 1 }),
    ]);

    const outlines = json(files, 'outlines.json') as { mainTopic: string }[];
    expect(outlines.map((outline) => outline.mainTopic)).toContain('Harbour notes');
    const documents = names.filter((name) => name.startsWith('documents/'));
    expect(documents).toHaveLength(1);
    expect(strFromU8(files[documents[0]!]!)).toContain('Harbour charts show the depth of water');
  });

  it('holds only the caller’s own data, through GET /api/export too', async () => {
    const owner = await busyMember();
    const other = await member();
    const theirs = await unzip(await fromProfile(other.cookie));
    expect(json(theirs, 'account/profile.json')).toMatchObject({ id: other.user.id });
    expect(json(theirs, 'account/subscriptions.json')).toEqual([]);
    expect(Object.keys(theirs).filter((name) => /^(courses|documents)\//.test(name))).toEqual([]);
    expect(JSON.stringify(Object.keys(theirs))).not.toContain(owner.courseId);

    const token = await createApiToken(owner.user as User, { tokenName: 'backup script' });
    if (!token.ok) throw new Error(token.message);
    const viaApi = await unzip(await fromApi(token.value.token));
    expect(Object.keys(viaApi)).toContain(`courses/tidal-physics-${owner.courseId}/course.json`);
    expect(json(viaApi, 'account/profile.json')).toMatchObject({ id: owner.user.id });
  });

  it('refuses anyone signed out', async () => {
    const page = await fromProfile();
    expect(page.status).toBe(302);
    expect(page.headers.get('Location')).toMatch(/^\/signin/);
    const api = await fromApi();
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ success: false, code: 'authentication_required' });
    expect((await fromApi('cgk_not-a-real-token-at-all-not-a-real-token-at-all')).status).toBe(401);
  });

  it('lets a member have two exports under way at once; a third waits for one to end', async () => {
    const { cookie } = await member();
    const first = await fromProfile(cookie);
    const second = await fromProfile(cookie);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await fromProfile(cookie);
    expect(third.status).toBe(429);
    expect(third.headers.get('Retry-After')).toBe('5');
    expect(await third.text()).toMatch(/still being made/);
    // A download read to its end, or given up, frees its place.
    await first.arrayBuffer();
    await second.body!.cancel();
    const browser = new AbortController();
    const left = await fromProfile(cookie, browser.signal);
    const third2 = await fromProfile(cookie);
    expect([left.status, third2.status]).toEqual([200, 200]);
    expect((await fromProfile(cookie)).status).toBe(429);
    // The browser goes away mid-download: the export stops there and gives its place back.
    browser.abort();
    await expect(left.arrayBuffer()).rejects.toThrow();
    const again = await fromProfile(cookie);
    expect(again.status).toBe(200);
    expect(Object.keys(await unzip(again))).toContain('README.md');
    await third2.body!.cancel();
  });
});
