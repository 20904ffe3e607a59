import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { quizzes } from '../../db/schema';
import { useBrowser } from '../support/browser';
import { insertCourse } from '../support/courses';
import { startLmsStandIn, type LmsStandIn } from '../support/lms-stand-in';
import { appDatabase, signUp } from '../support/members';
import { manifestErrors, unzip, unzipTo } from '../support/scorm';
import {
  insertWrittenQuizzes,
  setCourseLanguage,
  setFirstLessonPhoto,
} from '../support/scorm-courses';

interface LmsCall {
  name: string;
  args: string[];
  result: string;
  error: string;
}

interface Snapshot {
  suspend_data: string;
  core: {
    lesson_location: string;
    lesson_status: string;
    exit: string;
    session_time: string;
    score: { raw: string; min: string; max: string };
  };
  objectives: Record<string, { id: string; status: string; score: { raw: string } }>;
}

describe('SCORM 1.2 package', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;
  const cleanup: (() => Promise<void> | void)[] = [];

  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** The zip unzipped into a folder and served by the LMS stand-in. */
  async function hostPackage(zip: Buffer, options: { imageDelayMs?: number } = {}) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-scorm-'));
    cleanup.push(() => fs.rmSync(folder, { recursive: true, force: true }));
    const lms: LmsStandIn = await startLmsStandIn(unzipTo(zip, folder), options);
    cleanup.push(() => lms.close());
    return lms;
  }

  /** A learner's browser context on the LMS, with every URL it requests. */
  async function learnerContext() {
    const context = await e2e.browser.newContext();
    cleanup.push(() => context.close());
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    return { context, requests };
  }

  const calls = (lmsPage: Page) => lmsPage.evaluate(() => window.lmsCalls as LmsCall[]);
  const snapshot = (lmsPage: Page) => lmsPage.evaluate(() => window.lmsSnapshot() as Snapshot);
  const setValues = (all: LmsCall[], element: string) =>
    all.filter((c) => c.name === 'LMSSetValue' && c.args[0] === element).map((c) => c.args[1]);

  async function showing(content: FrameLocator, pageId: string) {
    await content.locator(`body[data-page="${pageId}"]`).waitFor();
  }

  /** Answers a quiz page: the right option for the first `right` questions, a wrong one after. */
  async function answer(content: FrameLocator, key: { answer: number }[], right: number) {
    for (const [i, question] of key.entries()) {
      const option = i < right ? question.answer : (question.answer + 1) % 3;
      await content.locator(`input[name="q${i}"][value="${option}"]`).check();
    }
    await content.getByRole('button', { name: 'Submit answers' }).click();
  }

  function expectSameOrigin(requests: string[], origin: string) {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  }

  it('downloads from the course view and an LMS records lessons, quizzes, the exam and the finish', async () => {
    const context = await e2e.browser.newContext({ baseURL, acceptDownloads: true });
    cleanup.push(() => context.close());
    const page = await context.newPage();
    const member = await signUp(page, dataDir, { plan: 'monthly' });
    const courseId = await insertCourse(dataDir, member.id, {
      mainTopic: 'Introduction to Astronomy',
      lessons: 6,
      allDone: true,
    });
    const [quiz1, , , exam] = await insertWrittenQuizzes(dataDir, courseId);
    await setFirstLessonPhoto(dataDir, courseId, '/images/demo/photo-1.png');

    await page.goto(`/course/${courseId}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('link', {
          name: 'Download for an LMS (SCORM 1.2) of Introduction to Astronomy',
        })
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe('introduction-to-astronomy-scorm12.zip');
    const zip = fs.readFileSync((await download.path())!);

    // The package: a manifest valid against the SCORM 1.2 schemas, the photo inside it.
    const files = unzip(zip);
    const manifest = new TextDecoder().decode(files.get('imsmanifest.xml'));
    expect(await manifestErrors(manifest)).toEqual([]);
    expect(manifest).toContain('<adlcp:masteryscore>80</adlcp:masteryscore>');
    const mastery = manifest.match(/<adlcp:masteryscore>(\d+)</)![1]!;
    expect(files.has('images/image-001.png')).toBe(true);
    // Nothing of the owner's: no name, email or id.
    for (const [file, bytes] of files) {
      if (!/\.(html|xml|js|css)$/.test(file)) continue;
      const body = new TextDecoder().decode(bytes);
      for (const secret of [courseId, member.id, member.email, member.name])
        expect(body.includes(secret), `${file} holds ${secret}`).toBe(false);
    }

    // An LMS launches it in a frame of its player, handing over the manifest's mastery score;
    // its images arrive late, as on a slow network.
    const lms = await hostPackage(zip, { imageDelayMs: 4000 });
    const { context: learner, requests } = await learnerContext();
    const lmsPage = await learner.newPage();
    // Not waiting for the page's load event: that waits for every image of every frame.
    await lmsPage.goto(`${lms.origin}/lms.html?mode=frame&mastery=${mastery}`, {
      waitUntil: 'domcontentloaded',
    });
    const shell = lmsPage.frameLocator('#sco');
    const content = shell.frameLocator('#content');
    await showing(content, 'lesson-1');
    const photoWidth = () =>
      content.locator('figure img').evaluate((img: HTMLImageElement) => img.naturalWidth);
    // The lesson counts as soon as its text is there, before its photo has arrived.
    await expect.poll(async () => (await snapshot(lmsPage)).core.lesson_location).toBe('lesson-1');
    expect((await snapshot(lmsPage)).objectives['0']).toMatchObject({ status: 'completed' });
    expect(await photoWidth()).toBe(0);
    await expect.poll(photoWidth, { timeout: 15_000 }).toBeGreaterThan(0);
    const [first] = await calls(lmsPage);
    expect(first).toEqual({ name: 'LMSInitialize', args: [''], result: 'true', error: '0' });
    expect((await snapshot(lmsPage)).core.lesson_status).toBe('incomplete');

    // The exam waits for every lesson.
    const examLink = shell.locator('a[data-page="exam"]');
    expect(await examLink.getAttribute('aria-disabled')).toBe('true');
    // A click on it (forced: it says it is disabled) leaves the frame where it is.
    await examLink.click({ force: true });
    await shell.locator('a[data-page="lesson-2"]').click();
    await showing(content, 'lesson-2');

    // Topic 1's quiz through the page's own "Next" link, every answer right.
    await content.getByRole('link', { name: 'Next: Topic quiz' }).click();
    await showing(content, 'quiz-1');
    await answer(content, quiz1!.questions, 3);
    await content.getByText('You got 3 of 3 right (100%).').waitFor();

    for (const lesson of ['lesson-3', 'lesson-4', 'lesson-5', 'lesson-6']) {
      await shell.locator(`a[data-page="${lesson}"]`).click();
      await showing(content, lesson);
    }
    await shell.getByText('6 of 6 lessons done').waitFor();
    await expect.poll(() => examLink.getAttribute('aria-disabled')).toBeNull();

    // The exam: failed at 50%, then passed at 100% on a retake.
    await examLink.click();
    await showing(content, 'exam');
    await answer(content, exam!.questions, 5);
    await content.getByText('You got 5 of 10 right (50%). Not passed yet: 80% passes.').waitFor();
    expect((await snapshot(lmsPage)).core).toMatchObject({
      lesson_status: 'failed',
      score: { raw: '50', min: '0', max: '100' },
    });
    await content.getByRole('button', { name: 'Take it again' }).click();
    await answer(content, exam!.questions, 10);
    await content.getByText('You got 10 of 10 right (100%). You passed the course.').waitFor();
    await shell.getByText('final exam 100% (passed)').waitFor();

    await shell.getByRole('button', { name: 'Save and exit' }).click();
    await shell.getByText('Your progress is saved.').waitFor();

    const all = await calls(lmsPage);
    expect(all.at(-1)).toMatchObject({ name: 'LMSFinish', result: 'true', error: '0' });
    expect(all.filter((c) => c.name === 'LMSInitialize')).toHaveLength(1);
    expect(all.filter((c) => c.name === 'LMSFinish')).toHaveLength(1);
    expect(all.filter((c) => c.error !== '0')).toEqual([]);
    expect(setValues(all, 'cmi.core.lesson_location')).toEqual([
      'lesson-1',
      'lesson-2',
      'quiz-1',
      'lesson-3',
      'lesson-4',
      'lesson-5',
      'lesson-6',
      'exam',
    ]);
    expect(setValues(all, 'cmi.core.score.raw')).toEqual(['50', '100']);
    expect(setValues(all, 'cmi.core.lesson_status')).toEqual(['incomplete', 'failed', 'passed']);

    const saved = await snapshot(lmsPage);
    expect(saved.core).toMatchObject({
      lesson_location: 'exam',
      lesson_status: 'passed',
      exit: '',
      score: { raw: '100', min: '0', max: '100' },
    });
    expect(saved.core.session_time).toMatch(/^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/);
    const objectives = Object.values(saved.objectives);
    expect(objectives.map((o) => [o.id, o.status])).toEqual([
      ['lesson-1', 'completed'],
      ['lesson-2', 'completed'],
      ['lesson-3', 'completed'],
      ['lesson-4', 'completed'],
      ['lesson-5', 'completed'],
      ['lesson-6', 'completed'],
      ['quiz-1', 'passed'],
      ['quiz-2', 'not attempted'],
      ['quiz-3', 'not attempted'],
    ]);
    expect(objectives.find((o) => o.id === 'quiz-1')!.score.raw).toBe('100');
    expect(JSON.parse(saved.suspend_data)).toEqual({
      v: 1,
      d: '111111',
      q: { 'quiz-1': 100 },
      e: 100,
    });

    // Nothing was asked of any other origin: the package loads only its own files.
    expectSameOrigin(requests, lms.origin);
    expect(lms.requested).toContain('/package/images/image-001.png');
  });

  it('runs right to left in a window the LMS opens, and resumes where the learner left', async () => {
    const page = await e2e.newPage();
    cleanup.push(() => page.context().close());
    const member = await signUp(page, dataDir, { plan: 'yearly' });
    const courseId = await insertCourse(dataDir, member.id, {
      mainTopic: 'Astronomy',
      lessons: 6,
      allDone: true,
    });
    await setCourseLanguage(dataDir, courseId, 'ar', {
      course: 'مقدمة في علم الفلك',
      topic: 'الموضوع',
      lesson: 'الدرس',
    });
    await insertWrittenQuizzes(dataDir, courseId);
    const response = await page.request.get(`/course/${courseId}/export.scorm.zip`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/zip');
    const zip = await response.body();
    const manifest = new TextDecoder().decode(unzip(zip).get('imsmanifest.xml'));
    expect(manifest).toContain(
      '<imsmd:langstring xml:lang="ar">مقدمة في علم الفلك</imsmd:langstring>',
    );
    expect(await manifestErrors(manifest)).toEqual([]);

    const lms = await hostPackage(zip);
    const { context: learner, requests } = await learnerContext();
    const lmsPage = await learner.newPage();
    await lmsPage.goto(`${lms.origin}/lms.html?mode=popup&mastery=80`);
    // The course opens in its own window: it finds the API through window.opener.
    const [course] = await Promise.all([
      learner.waitForEvent('page') as Promise<Page>,
      lmsPage.getByRole('button', { name: 'Launch course' }).click(),
    ]);
    const content = course.frameLocator('#content');
    await showing(content, 'lesson-1');
    expect(await course.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // Mirrored: the outline sits right of the page.
    const nav = (await course.locator('nav.shell-nav').boundingBox())!;
    const frame = (await course.locator('#content').boundingBox())!;
    expect(nav.x).toBeGreaterThan(frame.x);
    expect(
      await content
        .locator('h1')
        .evaluate((h1) => [h1.textContent, getComputedStyle(h1).direction]),
    ).toEqual(['الدرس 1', 'rtl']);
    // Arabic text is set in the font the package carries.
    await expect
      .poll(() =>
        content
          .locator('h1')
          .evaluate(() => document.fonts.check('16px "Noto Sans Arabic"', 'الدرس')),
      )
      .toBe(true);
    await expect
      .poll(() => lms.requested.includes('/package/fonts/NotoSansArabic-Bold.ttf'))
      .toBe(true);

    await content.getByRole('link', { name: /Next:/ }).click();
    await showing(content, 'lesson-2');
    await course.getByText('2 of 6 lessons done').waitFor();
    await course.getByRole('button', { name: 'Save and exit' }).click();
    await course.getByText('Your progress is saved.').waitFor();
    const first = await calls(lmsPage);
    expect(first[0]).toMatchObject({ name: 'LMSInitialize', result: 'true' });
    expect(first.at(-1)).toMatchObject({ name: 'LMSFinish', result: 'true', error: '0' });
    const saved = await snapshot(lmsPage);
    expect(saved.core).toMatchObject({
      lesson_location: 'lesson-2',
      lesson_status: 'incomplete',
      exit: 'suspend',
    });
    await course.close();

    // The next launch of the same attempt: the LMS hands the data back, the course resumes.
    const again = await learner.newPage();
    await again.addInitScript((data) => {
      window.lmsSaved = data;
    }, saved);
    await again.goto(`${lms.origin}/lms.html?mode=frame&mastery=80`);
    const shell = again.frameLocator('#sco');
    await showing(shell.frameLocator('#content'), 'lesson-2');
    await shell.getByText('2 of 6 lessons done').waitFor();
    for (const lesson of ['lesson-1', 'lesson-2'])
      await shell.locator(`a[data-page="${lesson}"] .done-mark`).waitFor();
    expect(await shell.locator('a[data-page="lesson-3"] .done-mark').count()).toBe(0);
    const resumed = await calls(again);
    expect(resumed[0]).toMatchObject({ name: 'LMSInitialize', result: 'true' });
    // The objectives are the LMS's already: none is created twice.
    expect(setValues(resumed, 'cmi.objectives.0.id')).toEqual([]);
    expect(resumed.filter((c) => c.error !== '0')).toEqual([]);

    expectSameOrigin(requests, lms.origin);
  });

  it('is for paid members, for the owner, and for a course whose quizzes are written', async () => {
    const context: BrowserContext = await e2e.browser.newContext({ baseURL });
    cleanup.push(() => context.close());
    const page = await context.newPage();
    const free = await signUp(page, dataDir);
    const courseId = await insertCourse(dataDir, free.id, {
      mainTopic: 'Geology',
      lessons: 2,
      allDone: true,
    });
    await insertWrittenQuizzes(dataDir, courseId);

    await page.goto(`/course/${courseId}`);
    await page.getByRole('link', { name: 'Download for an LMS (SCORM 1.2) of Geology' }).click();
    await page.locator('.Toastify').getByText('For paid members only').waitFor();
    const refused = await page.request.get(`/course/${courseId}/export.scorm.zip`);
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toBe('For paid members only');
    // /pricing says which plans have it.
    await page.goto('/pricing');
    await page.getByRole('heading', { name: 'Courses for your LMS' }).waitFor();
    await page
      .getByText(/Paid plans download any finished course as a SCORM 1\.2 package/)
      .waitFor();

    // A paid member: someone else's course is not found; their own waits for its quizzes.
    await context.clearCookies();
    const paid = await signUp(page, dataDir, { plan: 'monthly' });
    expect((await page.request.get(`/course/${courseId}/export.scorm.zip`)).status()).toBe(404);
    const own = await insertCourse(dataDir, paid.id, {
      mainTopic: 'Botany',
      lessons: 2,
      allDone: true,
    });
    await insertWrittenQuizzes(dataDir, own);
    // The app's own SQLite file, opened beside it (tests/support/members.ts).
    await appDatabase(dataDir)
      .update(quizzes)
      .set({ questions: null, state: 'queued' })
      .where(and(eq(quizzes.courseId, own), eq(quizzes.kind, 'topic')));
    await page.goto(`/course/${own}`);
    const waiting = page.getByRole('button', { name: /Download for an LMS \(SCORM 1\.2\)/ });
    expect(await waiting.isDisabled()).toBe(true);
    const early = await page.request.get(`/course/${own}/export.scorm.zip`);
    expect(early.status()).toBe(409);
    expect(await early.text()).toMatch(/once every lesson and quiz is ready/);
  });
});

declare global {
  interface Window {
    lmsCalls: unknown[];
    lmsSnapshot: () => unknown;
    lmsSaved: unknown;
  }
}
