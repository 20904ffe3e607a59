import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWithLessons } from '~/models/courses.server';
import { createUser } from '~/models/users.server';
import * as markdownRoute from '~/routes/member/course.$courseId_.export[.md]';
import * as pdfRoute from '~/routes/member/course.$courseId_.export[.pdf]';
import { writeLessonNote } from '~/services/lesson-notes.server';
import { createSession } from '~/utils/auth.server';
import { resetEnvForTests } from '~/utils/env.server';

const PNG = fs.readFileSync('public/images/demo/photo-2.png');
let imageServer: http.Server;
let imageBase = '';
const served: string[] = [];

beforeAll(async () => {
  imageServer = http.createServer((request, response) => {
    served.push(request.url ?? '');
    if (request.url === '/ok.png')
      response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
  process.env.EXPORT_IMAGE_HOSTS = '127.0.0.1';
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.EXPORT_IMAGE_HOSTS;
  resetEnvForTests();
  await new Promise((resolve) => imageServer.close(resolve));
});

let counter = 0;
async function member() {
  counter += 1;
  const user = await createUser({
    email: `export${counter}-${Date.now()}@example.com`,
    name: 'Ada Lovelace',
    password: 'a-long-password',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

async function course(userId: string, language = 'en', title = 'Graph Algorithms Explained') {
  const word = language === 'hi' ? 'पाठ' : 'Lesson';
  const created = await createCourseWithLessons({
    userId,
    mainTopic: title,
    type: 'text',
    language,
    topics: [1, 2, 3].map((t) => ({
      title: `${language === 'hi' ? 'विषय' : 'Topic'} ${t}`,
      lessons: [1, 2].map((l) => ({
        title: `${word} ${t}.${l}`,
        // The last lesson is not written yet.
        theory:
          t === 3 && l === 2
            ? null
            : `<h2>${word} ${t}.${l} basics</h2><p>Some <strong>bold</strong> text.</p>` +
              `<p><img src="${imageBase}/ok.png" alt="Working image"></p>` +
              `<p><img src="${imageBase}/missing.png" alt="Broken image"></p>` +
              `<p><img src="http://169.254.169.254/secret.png" alt="Foreign image"></p>`,
        imageUrl: '/images/demo/photo-1.png',
      })),
    })),
  });
  return created.course;
}

async function get(
  route: typeof markdownRoute | typeof pdfRoute,
  format: 'md' | 'pdf',
  courseId: string,
  cookie: string,
  query = '',
): Promise<Response> {
  try {
    return await route.loader({
      request: new Request(`http://localhost/course/${courseId}/export.${format}${query}`, {
        headers: { Cookie: cookie },
      }),
      params: { courseId },
      context: {},
    });
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

async function pdfText(bytes: Buffer) {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const text = await parser.getText();
    return { text: text.text, pages: text.total };
  } finally {
    await parser.destroy();
  }
}

describe('course export', () => {
  it("answers 404 for another member's course and for no course", async () => {
    const owner = await member();
    const other = await member();
    const { id } = await course(owner.user.id);
    for (const [route, format] of [
      [markdownRoute, 'md'],
      [pdfRoute, 'pdf'],
    ] as const) {
      expect((await get(route, format, id, other.cookie)).status).toBe(404);
      expect((await get(route, format, 'no-such-course', owner.cookie)).status).toBe(404);
    }
  });

  it('downloads the Markdown with the title, every lesson title and image links', async () => {
    const owner = await member();
    const { id } = await course(owner.user.id);
    const response = await get(markdownRoute, 'md', id, owner.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/markdown');
    expect(response.headers.get('Content-Disposition')).toBe(
      'attachment; filename="graph-algorithms-explained.md"',
    );
    const text = await response.text();
    expect(text.startsWith('# Graph Algorithms Explained\n')).toBe(true);
    expect(text).toContain('Language: English');
    for (const t of [1, 2, 3])
      for (const l of [1, 2]) expect(text).toContain(`### Lesson ${t}.${l}\n`);
    // The demo photo's site-relative path becomes an absolute link (APP_URL).
    expect(text).toMatch(
      /!\[Lesson 1\.1\]\(<http:\/\/localhost(:\d+)?\/images\/demo\/photo-1\.png>\)/,
    );
    expect(text).toContain(`![Working image](<${imageBase}/ok.png>)`);
    expect(text).toContain('**bold**');
    // The unwritten lesson is in the file, marked as such.
    expect(text).toMatch(/### Lesson 3\.2\n\n_Not written yet\._/);
  });

  it("adds the member's own notes only when asked (?notes=1)", async () => {
    const owner = await member();
    const created = await createCourseWithLessons({
      userId: owner.user.id,
      mainTopic: 'Graph Search',
      type: 'text',
      topics: [
        {
          title: 'Breadth first',
          lessons: [{ title: 'Queues', theory: '<p>A queue holds the frontier.</p>' }],
        },
      ],
    });
    const saved = await writeLessonNote(owner.user.id, created.lessons[0]!, 'BFS uses a queue.');
    expect(saved.ok).toBe(true);

    const plain = await (await get(markdownRoute, 'md', created.course.id, owner.cookie)).text();
    expect(plain).not.toContain('BFS uses a queue.');
    const withNotes = await (
      await get(markdownRoute, 'md', created.course.id, owner.cookie, '?notes=1')
    ).text();
    expect(withNotes).toContain('> **My notes**');
    expect(withNotes).toContain('> BFS uses a queue.');
  });

  it('renders a PDF with the title, every lesson title and embedded images; a failed image is a link', async () => {
    const owner = await member();
    const { id } = await course(owner.user.id);
    served.length = 0;
    const response = await get(pdfRoute, 'pdf', id, owner.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toBe(
      'attachment; filename="graph-algorithms-explained.pdf"',
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, pages } = await pdfText(bytes);
    expect(text).toContain('Graph Algorithms Explained');
    for (const t of [1, 2, 3]) for (const l of [1, 2]) expect(text).toContain(`Lesson ${t}.${l}`);
    // Title page, outline, then each of the three topics from a new page.
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(pages).toBeLessThan(40);
    expect(text).toContain(`Broken image: ${imageBase}/missing.png`);
    expect(text).toContain('Foreign image: http://169.254.169.254/secret.png');
    expect(text).toContain('Not written yet.');
    // Images are embedded (PDF image XObjects), and only the allowed host was asked.
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
    expect(served.sort()).toEqual(['/missing.png', '/ok.png']);
  });

  it('embeds the Noto font of the course language (Hindi)', async () => {
    const owner = await member();
    const { id } = await course(owner.user.id, 'hi', 'एल्गोरिदम का परिचय');
    const response = await get(pdfRoute, 'pdf', id, owner.cookie);
    expect(response.status).toBe(200);
    // A title without Latin letters gets the generic file name.
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="course.pdf"');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansDevanagari-Bold/);
    expect(bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansDevanagari/);
    const { pages } = await pdfText(bytes);
    expect(pages).toBeGreaterThanOrEqual(5);
  });

  it('embeds the Arabic Noto font for an Arabic course', async () => {
    const owner = await member();
    const { id } = await course(owner.user.id, 'ar', 'مقدمة في الخوارزميات');
    const bytes = Buffer.from(await (await get(pdfRoute, 'pdf', id, owner.cookie)).arrayBuffer());
    expect(bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansArabic/);
  });
});

/** A course whose PDF is a few hundred milliseconds of drawing: 6 topics of 5 long lessons. */
async function largeCourse(userId: string) {
  const paragraph =
    '<p>Dijkstra’s algorithm keeps a priority queue of tentative distances and settles the closest ' +
    'vertex first; every edge out of it is relaxed once, which is why negative weights break it ' +
    'and why a binary heap gives O((V + E) log V).</p>';
  const created = await createCourseWithLessons({
    userId,
    mainTopic: 'A Very Long Course',
    type: 'text',
    language: 'en',
    topics: Array.from({ length: 6 }, (_, t) => ({
      title: `Topic ${t + 1}`,
      lessons: Array.from({ length: 5 }, (_, l) => ({
        title: `Lesson ${t + 1}.${l + 1}`,
        theory: `<h2>Part ${l + 1}</h2>${paragraph.repeat(8)}`,
        imageUrl: null,
      })),
    })),
  });
  return created.course;
}

async function smallCourse(userId: string) {
  const created = await createCourseWithLessons({
    userId,
    mainTopic: 'A Short Course',
    type: 'text',
    language: 'en',
    topics: [
      { title: 'Topic', lessons: [{ title: 'Lesson', theory: '<p>Short.</p>', imageUrl: null }] },
    ],
  });
  return created.course;
}

async function timedPdf(courseId: string, cookie: string) {
  const started = performance.now();
  const response = await get(pdfRoute, 'pdf', courseId, cookie);
  await response.arrayBuffer();
  const endedAt = performance.now();
  return { status: response.status, ms: endedAt - started, endedAt, response };
}

describe('PDF exports shared between members (issue 31, item 6)', () => {
  it("refuses a member's third PDF at once, and another member's small PDF waits for at most one large one", async () => {
    const heavy = await member();
    const light = await member();
    const large = await largeCourse(heavy.user.id);
    const small = await smallCourse(light.user.id);
    // Warm up the PDF thread, then the baseline: one large export alone.
    expect((await timedPdf(small.id, light.cookie)).status).toBe(200);
    const alone = await timedPdf(large.id, heavy.cookie);
    expect(alone.status).toBe(200);

    // One member asks for six large PDFs at once; the other member's small one comes just after.
    const flood = Array.from({ length: 6 }, () => timedPdf(large.id, heavy.cookie));
    // Long enough for all six to be queued (first come, first served, the small one would wait
    // for every one of them).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const smallDuring = await timedPdf(small.id, light.cookie);
    const floodDone = await Promise.all(flood);
    expect(smallDuring.status).toBe(200);
    const ratio = smallDuring.ms / alone.ms;
    console.log(
      `PDF exports: one large alone ${alone.ms.toFixed(0)} ms; a small one during six large ` +
        `of another member ${smallDuring.ms.toFixed(0)} ms (${ratio.toFixed(2)}x the large one)`,
    );

    const statuses = floodDone.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    for (const refused of floodDone.filter((r) => r.status === 429)) {
      expect(Number(refused.response.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(refused.ms).toBeLessThan(alone.ms);
    }
    // First come, first served, the small one would be drawn after both of the other member's
    // accepted PDFs; taking turns, it waits at most for the one being drawn. The order says which,
    // however busy the machine (the ratio printed above only shows how long that was here).
    const largeEnds = floodDone
      .filter((r) => r.status === 200)
      .map((r) => r.endedAt)
      .sort((a, b) => a - b);
    expect(smallDuring.endedAt).toBeLessThan(largeEnds[1]!);
  });

  it('takes turns between members: a small PDF is drawn before the second large one of each member ahead of it', async () => {
    const first = await member();
    const second = await member();
    const light = await member();
    const largeA = await largeCourse(first.user.id);
    const largeB = await largeCourse(second.user.id);
    const small = await smallCourse(light.user.id);
    const finished: string[] = [];
    const exportAs = (label: string, courseId: string, cookie: string) =>
      timedPdf(courseId, cookie).then((result) => {
        finished.push(label);
        return result;
      });
    // Two members, two large PDFs each (within their limit), then a third member's small one.
    const queued = [
      exportAs('A1', largeA.id, first.cookie),
      exportAs('B1', largeB.id, second.cookie),
      exportAs('A2', largeA.id, first.cookie),
      exportAs('B2', largeB.id, second.cookie),
    ];
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await exportAs('small', small.id, light.cookie)).status).toBe(200);
    expect((await Promise.all(queued)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    console.log(`PDF exports finished in the order ${finished.join(', ')}`);
    // First come, first served, it would finish last, behind all four. A member's two requests
    // may reach the queue in either order (each reads its course first), so "the second large
    // one" of a member is whichever of the two finished later.
    const secondOf = (member: 'A' | 'B') =>
      Math.max(finished.indexOf(`${member}1`), finished.indexOf(`${member}2`));
    expect(finished.indexOf('small')).toBeLessThan(secondOf('A'));
    expect(finished.indexOf('small')).toBeLessThan(secondOf('B'));
  });
});
