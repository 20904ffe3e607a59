import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWithLessons } from '~/models/courses.server';
import { createUser } from '~/models/users.server';
import * as scormRoute from '~/routes/member/course.$courseId_.export[.scorm.zip]';
import { SCORM_EXPORTS_BUSY_MESSAGE } from '~/services/export/scorm.server';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { manifestErrors, unzip } from '../support/scorm';
import { sampleQuestions } from '../support/scorm-courses';

/**
 * GET /course/:id/export.scorm.zip through its route (ADR 34): who may have it, when, and what
 * the export's image rules (ADR 22) put in it.
 */
const PNG = fs.readFileSync('public/images/demo/photo-2.png');
let imageServer: http.Server;
let imageBase = '';
let imageDelayMs = 0;

beforeAll(async () => {
  imageServer = http.createServer((request, response) => {
    const answer = () =>
      request.url === '/ok.png'
        ? response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG)
        : response.writeHead(404).end();
    setTimeout(answer, imageDelayMs);
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
async function member(plan: 'free' | 'monthly' | 'yearly' = 'monthly') {
  counter += 1;
  const user = await createUser({
    email: `scorm${counter}-${Date.now()}@example.com`,
    name: 'Ada Lovelace',
    password: 'a-long-password',
  });
  const { users } = tables;
  if (plan !== 'free') await database().update(users).set({ plan }).where(eq(users.id, user.id));
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

async function course(userId: string, options: { quizzes?: boolean; written?: boolean } = {}) {
  const { quizzes = true, written = true } = options;
  const created = await createCourseWithLessons({
    userId,
    mainTopic: 'Graph Algorithms Explained',
    type: 'text',
    language: 'en',
    topics: [1, 2].map((t) => ({
      title: `Topic ${t}`,
      lessons: [1, 2].map((l) => ({
        title: `Lesson ${t}.${l}`,
        theory:
          !written && t === 2 && l === 2
            ? null
            : `<p>Text ${t}.${l}</p><p><img src="${imageBase}/ok.png" alt="Allowed"></p>` +
              `<p><img src="http://169.254.169.254/secret.png" alt="Foreign"></p>`,
        imageUrl: '/images/demo/photo-1.png',
      })),
      quizQuestions: quizzes ? sampleQuestions(3, `Topic ${t}`) : null,
    })),
    examQuestions: quizzes ? sampleQuestions(10, 'Exam') : null,
  });
  return created.course;
}

async function get(courseId: string, cookie: string): Promise<Response> {
  try {
    return await scormRoute.loader({
      request: new Request(`http://localhost/course/${courseId}/export.scorm.zip`, {
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

describe('the SCORM 1.2 package route', () => {
  it('gives a paid owner the zip: valid manifest, allowed images inside, others linked', async () => {
    const owner = await member('monthly');
    const { id } = await course(owner.user.id);
    const response = await get(id, owner.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/zip');
    expect(response.headers.get('Content-Disposition')).toBe(
      'attachment; filename="graph-algorithms-explained-scorm12.zip"',
    );
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    const files = unzip(new Uint8Array(await response.arrayBuffer()));
    const text = (file: string) => new TextDecoder().decode(files.get(file));
    expect(await manifestErrors(text('imsmanifest.xml'))).toEqual([]);
    // The demo photo (public/images) and the image from an allowed host are in the zip.
    expect(files.get('images/image-001.png')).toEqual(
      new Uint8Array(fs.readFileSync('public/images/demo/photo-1.png')),
    );
    expect(files.get('images/image-002.png')).toEqual(new Uint8Array(PNG));
    expect([...files.keys()].filter((file) => file.startsWith('images/'))).toHaveLength(2);
    const lesson = text('lessons/lesson-001.html');
    expect(lesson).toContain('<img src="../images/image-002.png" alt="Allowed">');
    // A host the export may not fetch from stays a link, never loaded.
    expect(lesson).not.toMatch(/<img[^>]*169\.254/);
    expect(lesson).toContain('href="http://169.254.169.254/secret.png"');
    expect([...files.keys()].filter((file) => file.startsWith('quizzes/'))).toEqual([
      'quizzes/quiz-01.html',
      'quizzes/quiz-02.html',
      'quizzes/exam.html',
    ]);
  });

  it("answers 403 'For paid members only' to a free owner, and 404 for anyone else's course", async () => {
    const free = await member('free');
    const { id } = await course(free.user.id);
    const refused = await get(id, free.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('For paid members only');

    const other = await member('monthly');
    expect((await get(id, other.cookie)).status).toBe(404);
    expect((await get('no-such-course', other.cookie)).status).toBe(404);
  });

  it('answers 409 while a lesson or a quiz is still being written', async () => {
    const owner = await member('monthly');
    const unwrittenLesson = await course(owner.user.id, { written: false });
    const unwrittenQuizzes = await course(owner.user.id, { quizzes: false });
    for (const { id } of [unwrittenLesson, unwrittenQuizzes]) {
      const response = await get(id, owner.cookie);
      expect(response.status).toBe(409);
      expect(await response.text()).toMatch(/once every lesson and quiz is ready/);
    }
  });

  it("refuses a member's third package at once while two are being made", async () => {
    const owner = await member('yearly');
    const { id } = await course(owner.user.id);
    imageDelayMs = 400;
    try {
      const answers = await Promise.all(Array.from({ length: 4 }, () => get(id, owner.cookie)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
      const busy = answers.find((r) => r.status === 429)!;
      expect(await busy.text()).toBe(SCORM_EXPORTS_BUSY_MESSAGE);
      expect(Number(busy.headers.get('Retry-After'))).toBeGreaterThan(0);
    } finally {
      imageDelayMs = 0;
    }
    // Once they are done, the member may download again.
    expect((await get(id, owner.cookie)).status).toBe(200);
  });
});
