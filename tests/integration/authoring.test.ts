import os from 'node:os';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATERIAL_MESSAGES, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_PAGES } from '~/domain/material';
import { AI_ALLOWANCE_MESSAGE } from '~/domain/plans';
import { startApp, type RunningApp } from '../support/app-process';
import { landingSamples, percentile } from '../support/latency';
import {
  bookPdf,
  docxWithSections,
  encryptedDocx,
  encryptedPdf,
  longPdf,
  pdfWithSections,
  scannedPdf,
  zipBombDocx,
} from '../support/material-fixtures';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
  type Member,
} from '../support/members';
import { databaseDialect, first, tables } from '~/utils/database.server';

/**
 * Authoring over HTTP against the running product (ADR 0032): every bad file is refused with its
 * message and leaves no row behind, a member's document is theirs alone and goes with the
 * course, reading a 200-page PDF does not stall other members' pages, and API clients edit,
 * rewrite and generate from an outline under the same rules as the page.
 */
let app: RunningApp;

beforeAll(async () => {
  // A small AI allowance, so a test can count what a rewrite costs.
  app = await startApp({ AI_REQUESTS_PER_HOUR: '8' });
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

async function signedIn(plan: Member['plan'] = 'monthly') {
  const member = await createMember(app, { plan });
  const cookie = `__session=${await sessionCookieValue(app, member)}`;
  return { member, headers: { Cookie: cookie, Origin: app.baseURL } };
}

type Headers = Awaited<ReturnType<typeof signedIn>>['headers'];

/**
 * /create as the page posts it (multipart), with a document or pasted text: to `/create`
 * without JavaScript, to `/create.data` with it (Remix's single fetch).
 */
function create(
  headers: Headers,
  material: { file?: { name: string; bytes: Uint8Array }; pasted?: string },
  {
    path = '/create',
    topic = 'Photosynthesis',
    subtopic = 'Light Reactions',
  }: { path?: string; topic?: string; subtopic?: string } = {},
) {
  const form = new FormData();
  form.append('topic', topic);
  form.append('subtopic', subtopic);
  form.append('topicCount', '5');
  form.append('type', 'text');
  if (material.file)
    form.append('document', new Blob([new Uint8Array(material.file.bytes)]), material.file.name);
  if (material.pasted) form.append('pasted', material.pasted);
  return fetch(`${app.baseURL}${path}`, {
    method: 'POST',
    headers,
    body: form,
    redirect: 'manual',
  });
}

// The running app's own database (tests/support/members.ts), queried through `tables`.
const rowsOf = async (member: Member) => {
  const { outlines, sourceDocuments } = tables;
  return {
    outlines: (await appDatabase(app).select().from(outlines).where(eq(outlines.userId, member.id)))
      .length,
    documents: (
      await appDatabase(app)
        .select()
        .from(sourceDocuments)
        .where(eq(sourceDocuments.userId, member.id))
    ).length,
  };
};

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const outlineRow = (id: string) =>
  first(appDatabase(app).select().from(tables.outlines).where(eq(tables.outlines.id, id)));

const SECTIONS = [
  { heading: 'Light Reactions', text: 'Chlorophyll absorbs light and splits water. '.repeat(8) },
  {
    heading: 'The Calvin Cycle',
    text: 'Carbon dioxide is fixed into sugar in the stroma. '.repeat(8),
  },
  { heading: 'Leaf Structure', text: 'Stomata let gases in and out of the leaf. '.repeat(8) },
];

describe('material that cannot be used', () => {
  it('is refused with its message, and nothing is created', async () => {
    const { member, headers } = await signedIn('monthly');
    const pdf = await pdfWithSections(SECTIONS);
    const docx = await docxWithSections(SECTIONS);
    const tooLarge = new Uint8Array(MAX_DOCUMENT_BYTES + 1024);
    tooLarge.set(Buffer.from('%PDF-1.4\n'));
    const cases: { name: string; bytes: Uint8Array; status: number; message: string }[] = [
      {
        name: 'scan.pdf',
        bytes: await scannedPdf(),
        status: 422,
        message: MATERIAL_MESSAGES.noText,
      },
      {
        name: 'locked.pdf',
        bytes: await encryptedPdf(),
        status: 422,
        message: MATERIAL_MESSAGES.encrypted,
      },
      {
        name: 'locked.docx',
        bytes: encryptedDocx(),
        status: 422,
        message: MATERIAL_MESSAGES.encrypted,
      },
      { name: 'bomb.docx', bytes: zipBombDocx(), status: 413, message: MATERIAL_MESSAGES.zipBomb },
      { name: 'notes.pdf', bytes: docx, status: 415, message: MATERIAL_MESSAGES.mismatch('pdf') },
      { name: 'notes.docx', bytes: pdf, status: 415, message: MATERIAL_MESSAGES.mismatch('docx') },
      { name: 'notes.txt', bytes: pdf, status: 415, message: MATERIAL_MESSAGES.mismatch('txt') },
      { name: 'notes.exe', bytes: pdf, status: 415, message: MATERIAL_MESSAGES.unsupported },
      { name: 'huge.pdf', bytes: tooLarge, status: 413, message: MATERIAL_MESSAGES.tooLarge },
      {
        name: 'long.pdf',
        // Counted before a page is read: a few words a page will do.
        bytes: await longPdf(MAX_DOCUMENT_PAGES + 1, 5),
        status: 413,
        message: MATERIAL_MESSAGES.tooManyPages(MAX_DOCUMENT_PAGES + 1),
      },
    ];
    for (const bad of cases) {
      const response = await create(headers, { file: bad });
      expect({ file: bad.name, status: response.status }).toEqual({
        file: bad.name,
        status: bad.status,
      });
      // The page's answer carries the message (shown as a toast).
      expect(await response.text()).toContain(escapeHtml(bad.message));
    }
    expect(await rowsOf(member)).toEqual({ outlines: 0, documents: 0 });

    // The same document, attached by a free member: documents are a paid plan's.
    const free = await signedIn('free');
    const refused = await create(free.headers, { file: { name: 'notes.pdf', bytes: pdf } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('For paid members only');
    const tooLong = await create(free.headers, { pasted: 'x'.repeat(20_001) });
    expect(tooLong.status).toBe(413);
    expect(await tooLong.text()).toContain(MATERIAL_MESSAGES.pastedTooLong(20_000));
    expect(await rowsOf(free.member)).toEqual({ outlines: 0, documents: 0 });
  });
});

describe('/create as browsers post it (issue 35)', () => {
  const HANDBOOK = SECTIONS.map((s) => ({
    title: s.heading,
    words: s.text.split(' ').slice(0, 6),
  }));

  it('takes a document over 1 MB at the address the page’s JavaScript posts to', async () => {
    const { member, headers } = await signedIn('yearly');
    const pdf = await bookPdf(HANDBOOK, { pagesPerChapter: 2, figures: 1 });
    expect(pdf.length).toBeGreaterThan(1024 * 1024);
    const response = await create(
      headers,
      { file: { name: 'handbook.pdf', bytes: pdf } },
      {
        path: '/create.data',
      },
    );
    // Single fetch answers a redirect as data, for the page's JavaScript to follow.
    expect(response.status).toBe(202);
    expect(await response.text()).toMatch(/\/topics\/[\w-]+/);
    expect(await rowsOf(member)).toEqual({ outlines: 1, documents: 1 });
  });

  it('refuses a form too large to read in the page’s words: JSON for JavaScript, the page without', async () => {
    const { member, headers } = await signedIn('yearly');
    // Beyond the document and the form around it (MAX_CREATE_FORM_BYTES, 11 MB).
    const huge = new Uint8Array(12 * 1024 * 1024);
    huge.set(Buffer.from('%PDF-1.4\n'));
    const file = { name: 'huge.pdf', bytes: huge };
    const data = await create(headers, { file }, { path: '/create.data' });
    expect(data.status).toBe(413);
    expect(await data.json()).toMatchObject({
      success: false,
      message: MATERIAL_MESSAGES.tooLarge,
    });

    const page = await create(headers, { file });
    expect(page.status).toBe(413);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`role="alert">${MATERIAL_MESSAGES.tooLarge}</p>`);
    expect(html).toContain('<h1>Generate Course</h1>');
    expect(html).toContain('name="document"');
    expect(await rowsOf(member)).toEqual({ outlines: 0, documents: 0 });
  });

  it('needs a sub-topic only without material, and names the field left empty', async () => {
    const paid = await signedIn('yearly');
    const free = await signedIn('free');
    const notes = SECTIONS.map((s) => `# ${s.heading}\n\n${s.text}`).join('\n\n');
    const withPasted = await create(free.headers, { pasted: notes }, { subtopic: '' });
    expect(withPasted.status).toBe(302);
    const withDocument = await create(
      paid.headers,
      { file: { name: 'notes.pdf', bytes: await pdfWithSections(SECTIONS) } },
      { subtopic: '' },
    );
    expect(withDocument.status).toBe(302);

    const refusals = [
      [
        paid.headers,
        {},
        'Please fill in all required fields: Sub Topic, or attach a document or paste text',
      ],
      [free.headers, {}, 'Please fill in all required fields: Sub Topic, or paste text'],
      [free.headers, { topic: ' ' }, 'Please fill in all required fields: Topic'],
    ] as const;
    for (const [headers, fields, message] of refusals) {
      const refused = await create(headers, {}, { subtopic: '', ...fields });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(escapeHtml(message));
    }
  });

  it('adds a sub-topic given with material after its sections, never in place of one', async () => {
    const { headers } = await signedIn('yearly');
    const five = ['Soil', 'Water', 'Light', 'Pruning', 'Pests'];
    const notes = five
      .map((heading) => `# ${heading}\n\n${`${heading} matters to every gardener. `.repeat(8)}`)
      .join('\n\n');
    // Five topics chosen and five sections: the yearly plan's 10 topics leave room for it.
    const created = await create(
      headers,
      { pasted: notes },
      { topic: 'Gardening', subtopic: 'Composting' },
    );
    expect(created.status).toBe(302);
    const outlineId = created.headers.get('location')!.split('/topics/')[1]!;
    const written = await waitFor(async () => {
      const row = await outlineRow(outlineId);
      return row?.state === 'done' ? row : undefined;
    });
    expect(written.result!.map((topic) => topic.title)).toEqual([...five, 'Composting']);
  });
});

/** React escapes quotes and apostrophes in the page's text. */
const escapeHtml = (text: string) => text.replace(/'/g, '&#x27;').replace(/"/g, '&quot;');

describe('a member’s document', () => {
  it('is theirs alone, and is deleted with the course made from it', async () => {
    const owner = await signedIn('free');
    const pasted = SECTIONS.map((s) => `# ${s.heading}\n\n${s.text}`).join('\n\n');
    const created = await create(owner.headers, { pasted });
    expect(created.status).toBe(302);
    const outlineId = created.headers.get('location')!.split('/topics/')[1]!;
    const { courses, sourceDocuments } = tables;
    const document = (await first(
      appDatabase(app)
        .select()
        .from(sourceDocuments)
        .where(eq(sourceDocuments.outlineId, outlineId)),
    ))!;
    expect(document.sections.map((s) => s.heading)).toEqual(SECTIONS.map((s) => s.heading));

    const read = (headers: Headers) =>
      fetch(`${app.baseURL}/documents/${document.id}`, { headers, redirect: 'manual' });
    expect((await read(owner.headers)).status).toBe(200);
    const other = await signedIn('monthly');
    expect((await read(other.headers)).status).toBe(404);
    // Nor can another member see, edit or generate from the outline it belongs to.
    const api = await fetch(`${app.baseURL}/api/outline/${outlineId}`, { headers: other.headers });
    expect(api.status).toBe(404);

    await waitFor(async () => ((await outlineRow(outlineId))?.state === 'done' ? true : undefined));
    const generated = await fetch(`${app.baseURL}/topics/${outlineId}`, {
      method: 'POST',
      headers: owner.headers,
      redirect: 'manual',
    });
    const courseId = generated.headers.get('location')!.split('/course/')[1]!;
    const db = appDatabase(app);
    expect(
      (await first(db.select().from(sourceDocuments).where(eq(sourceDocuments.id, document.id))))
        ?.courseId,
    ).toBe(courseId);
    await db.delete(courses).where(eq(courses.id, courseId));
    expect(
      await first(db.select().from(sourceDocuments).where(eq(sourceDocuments.id, document.id))),
    ).toBeUndefined();
    expect((await read(owner.headers)).status).toBe(404);
  });
});

// The web process's event loop is the subject, not the database: timed once, on SQLite (two
// timing runs at once on two cores measure each other).
describe.runIf(databaseDialect() === 'sqlite')('reading a 200-page PDF', () => {
  // Four rounds: enough samples that p99 is not one stray slow answer on a shared machine.
  const ROUNDS = 4;
  it('does not stall the landing page: its p99 during the upload stays within 2× idle (busy machine: under half an upload)', async () => {
    const { member, headers } = await signedIn('monthly');
    const pdf = await longPdf(MAX_DOCUMENT_PAGES);
    const loadAtStart = os.loadavg()[0]!;
    // Warm up the page and the extraction thread, then measure idle and during alike.
    await landingSamples(app.baseURL, 1_000);
    const warm = await create(headers, {
      file: { name: 'warm.pdf', bytes: await pdfWithSections(SECTIONS) },
    });
    expect(warm.status).toBe(302);

    // Rounds of an idle window then an upload, so that a shared machine's load drifting between
    // the two measurements weighs on both alike.
    const idle: number[] = [];
    const during: number[] = [];
    let uploadMs = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      idle.push(...(await landingSamples(app.baseURL, 2_000)));
      const started = Date.now();
      const upload = create(headers, { file: { name: `atlas-${round}.pdf`, bytes: pdf } });
      during.push(...(await landingSamples(app.baseURL, upload)));
      const response = await upload;
      uploadMs += (Date.now() - started) / ROUNDS;
      expect(response.status).toBe(302);
      const outlineId = response.headers.get('location')!.split('/topics/')[1]!;
      const { sourceDocuments } = tables;
      const stored = (await first(
        appDatabase(app)
          .select()
          .from(sourceDocuments)
          .where(
            and(eq(sourceDocuments.outlineId, outlineId), eq(sourceDocuments.userId, member.id)),
          ),
      ))!;
      expect(stored.pageCount).toBe(MAX_DOCUMENT_PAGES);
    }

    const idleP99 = percentile(idle, 99);
    const duringP99 = percentile(during, 99);
    console.log(
      `landing p99: idle ${idleP99.toFixed(1)} ms (${idle.length} samples), during the upload ` +
        `${duringP99.toFixed(1)} ms (${during.length} samples, ${Math.round(uploadMs)} ms an upload): ` +
        `${(duringP99 / idleP99).toFixed(2)}×; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    expect(during.length).toBeGreaterThan(20);
    // On a machine with a core to spare, within 2x idle. On a busy one (npm test runs the
    // browser suite beside this one) other work's noise alone reaches 5x, so the check is what
    // a stall would break: a loop blocked by the extraction holds a page for most of an upload.
    const busy = Math.max(loadAtStart, os.loadavg()[0]!) > os.availableParallelism();
    if (busy) expect(duringP99).toBeLessThan(uploadMs / 2);
    else expect(duringP99 / idleP99).toBeLessThanOrEqual(2);
  }, 180_000);
});

describe('POST /api/outline/:id', () => {
  async function writtenOutline(headers: Headers) {
    const created = await create(headers, {});
    expect(created.status).toBe(302);
    const outlineId = created.headers.get('location')!.split('/topics/')[1]!;
    await waitFor(async () => ((await outlineRow(outlineId))?.state === 'done' ? true : undefined));
    return outlineId;
  }
  const post = (headers: Headers, outlineId: string, body: unknown) =>
    fetch(`${app.baseURL}/api/outline/${outlineId}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('saves an edited outline within the plan, and generates exactly it', async () => {
    const { headers } = await signedIn('free');
    const outlineId = await writtenOutline(headers);
    const six = Array.from({ length: 6 }, (_, i) => ({
      title: `Topic ${i + 1}`,
      subtopics: [{ title: `Lesson ${i + 1}` }],
    }));
    const refused = await post(headers, outlineId, { topics: six });
    expect(refused.status).toBe(403);
    await expect(refused.json()).resolves.toMatchObject({
      success: false,
      message: 'For paid members only',
    });
    for (const [topics, message] of [
      [[{ title: 'A', subtopics: [] }], 'A topic needs at least one lesson'],
      [[{ title: ' ', subtopics: [{ title: 'x' }] }], 'Please fill in all required fields'],
      [
        [{ title: 'A\u202Eevil', subtopics: [{ title: 'x' }] }],
        'A title contains characters that are not allowed',
      ],
      [[{ title: 'A', subtopics: Array(5).fill({ title: 'x' }) }], 'A topic has at most 4 lessons'],
    ] as const) {
      const response = await post(headers, outlineId, { topics });
      expect(response.status).toBe(400);
      await expect(response.json()).resolves.toMatchObject({ message });
    }

    const edited = [
      { title: 'My Own Start', subtopics: [{ title: 'First Steps' }, { title: 'Second Steps' }] },
      { title: 'The End', subtopics: [{ title: 'Wrapping Up' }] },
    ];
    const saved = await post(headers, outlineId, { topics: edited });
    expect(saved.status).toBe(200);
    const body = (await saved.json()) as { outline: { topics: unknown; revision: number } };
    expect(body.outline).toMatchObject({ topics: edited, revision: 1 });

    const generated = await post(headers, outlineId, { generate: true });
    const { courseId } = (await generated.json()) as { courseId: string };
    const { topics: topicRows } = tables;
    const stored = await appDatabase(app)
      .select({ title: topicRows.title })
      .from(topicRows)
      .where(eq(topicRows.courseId, courseId))
      .orderBy(topicRows.position);
    expect(stored.map((t) => t.title)).toEqual(['My Own Start', 'The End']);
    // Once generated, the outline no longer changes.
    const late = await post(headers, outlineId, { topics: edited.slice(0, 1) });
    expect(late.status).toBe(409);
  });

  it('gives each topic the lessons the operator set for the plan, and holds an edit to them', async () => {
    // What the settings page stores (ADR 0055); each process reads it within a second.
    const db = appDatabase(app);
    const setPlans = async (value: object | null) => {
      await db.delete(tables.settings).where(eq(tables.settings.key, 'plans'));
      if (value)
        await db
          .insert(tables.settings)
          .values({ key: 'plans', value: JSON.stringify(value), updatedAt: new Date() });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    };
    await setPlans({ free: { lessonsPerTopic: 1 } });
    try {
      const { headers } = await signedIn('free');
      const outlineId = await writtenOutline(headers);
      const written = (await outlineRow(outlineId))!.result!;
      expect(written.length).toBe(5);
      // The demo's AI writes two lessons a topic; the plan allows one.
      expect(written.map((topic) => topic.lessons.length)).toEqual([1, 1, 1, 1, 1]);
      const twoLessons = [{ title: 'A', subtopics: [{ title: 'x' }, { title: 'y' }] }];
      const refused = await post(headers, outlineId, { topics: twoLessons });
      expect(refused.status).toBe(400);
      await expect(refused.json()).resolves.toMatchObject({
        message: 'A topic has at most 1 lesson',
      });
      const monthly = await signedIn('monthly');
      expect(
        (await post(monthly.headers, await writtenOutline(monthly.headers), { topics: twoLessons }))
          .status,
      ).toBe(200);
    } finally {
      await setPlans(null);
    }
  });

  it('rewrites with an instruction, one call of the AI allowance each', async () => {
    const { headers } = await signedIn('monthly');
    const outlineId = await writtenOutline(headers);
    const instruction = 'add a hands-on exercise';
    let rewrites = 0;
    for (;;) {
      const response = await post(headers, outlineId, { instruction });
      if (response.status === 429) {
        await expect(response.json()).resolves.toMatchObject({ message: AI_ALLOWANCE_MESSAGE });
        break;
      }
      expect(response.status).toBe(200);
      rewrites += 1;
      const round = (await outlineRow(outlineId))!.rewriteRound;
      await waitFor(async () =>
        (await outlineRow(outlineId))?.rewriteInstruction === null ? true : undefined,
      );
      expect((await outlineRow(outlineId))!.rewriteRound).toBe(round);
    }
    // An allowance of 8: the outline took one, each rewrite one.
    expect(rewrites).toBe(7);
    const topics = (await outlineRow(outlineId))!.result!;
    expect(topics[0]!.lessons.at(-1)!.title).toBe(`${topics[0]!.title}: ${instruction}`);
  });
});
