import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { lessons, outlines } from '../../db/schema';
import { writeKnobs } from '../../mocks/knobs';
import { useBrowser } from '../support/browser';
import { insertCourse } from '../support/courses';
import { appDatabase, createMember, signInAs, signUp } from '../support/members';

/**
 * Course generation as a member does it, in a real browser against the
 * production build in demo mode (the AI, Unsplash and YouTube are the mocks).
 */
describe('course generation in a browser', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;
  afterEach(() => {
    fs.rmSync(path.join(dataDir, 'mock-knobs.json'), { force: true });
  });

  const progress = (page: Page, value: number) =>
    page.waitForSelector(`[data-testid="progress"][aria-valuenow="${value}"]`);
  const toast = (page: Page, text: string) =>
    page.locator('.Toastify').getByText(text).first().waitFor();
  const lessonLink = (page: Page, title: string) =>
    page
      .getByRole('navigation', { name: 'Course topics' })
      .getByRole('link', { name: new RegExp(`^${title}`) });

  it('creates a theory-and-image course, studies it and finds it on /home', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);

    await page.goto('/home');
    await page.getByText('Nothing Found').waitFor();
    await page.locator('main').getByRole('link', { name: 'Generate Course' }).click();
    await page.waitForURL('**/create');

    await page.getByLabel('Topic', { exact: true }).fill('Photosynthesis');
    await page.getByLabel('Sub Topic 1').fill('Chlorophyll');
    await page.getByRole('button', { name: 'Add Sub-Topic' }).click();
    await page.getByLabel('Sub Topic 2').fill('Light Reactions');
    await expect(page.getByRole('radio', { name: '5' }).isChecked()).resolves.toBe(true);
    await expect(
      page.getByRole('radio', { name: 'Theory & Image Course' }).isChecked(),
    ).resolves.toBe(true);
    await page.getByRole('button', { name: 'Submit' }).click();

    await page.waitForURL(/\/topics\/[\w-]+$/);
    const outline = page.getByTestId('outline');
    await outline.waitFor();
    await expect(outline.locator(':scope > li').count()).resolves.toBe(5);
    const topicTitles = await outline.getByRole('heading').allInnerTexts();
    expect(topicTitles).toEqual(expect.arrayContaining(['Chlorophyll', 'Light Reactions']));
    await expect(page.getByRole('link', { name: 'Go Back' }).getAttribute('href')).resolves.toBe(
      '/create',
    );

    // One later lesson meets an overloaded AI five times (about 30 s of backoff) first.
    writeKnobs(dataDir, { MOCK_AI_FAIL_FIRST: 5, MOCK_AI_FAIL_MATCH: 'How Photosynthesis Works' });
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);

    const lesson = page.getByTestId('lesson');
    await lesson
      .getByRole('heading', { name: 'Chlorophyll in Photosynthesis', exact: true })
      .waitFor();
    await page.getByTestId('lesson-theory').getByText('Understanding Chlorophyll').waitFor();
    await page.getByTestId('lesson-image').waitFor();
    await expect(lesson.getByRole('link', { name: 'Unsplash' }).count()).resolves.toBe(1);
    await progress(page, 10);

    await lessonLink(page, 'Chlorophyll by Example').click();
    await lesson.getByRole('heading', { name: 'Chlorophyll by Example', exact: true }).waitFor();
    await progress(page, 20);
    await expect(lessonLink(page, 'Chlorophyll in Photosynthesis').innerText()).resolves.toContain(
      '✓',
    );

    await lessonLink(page, 'How Photosynthesis Works').click();
    const state = page.getByTestId('lesson-status');
    await state.getByText(/Retrying \(attempt \d\)/).waitFor();
    const url = page.url();
    expect(url).toMatch(/\?lesson=\d+$/);

    // A reload mid-generation shows the same state, from the server.
    await page.reload();
    expect(page.url()).toBe(url);
    await state.getByText(/Retrying \(attempt \d\)/).waitFor();
    await progress(page, 20);
    await lesson.getByRole('heading', { name: 'How Photosynthesis Works', exact: true }).waitFor();

    // The lesson appears by itself as soon as it is written, and counts as studied.
    await page
      .getByTestId('lesson-theory')
      .getByText('Understanding How Photosynthesis Works')
      .waitFor({ timeout: 60_000 });
    await progress(page, 30);

    await page.goto('/home');
    const card = page.getByTestId('course-card');
    await expect(card.count()).resolves.toBe(1);
    await card.getByRole('heading', { name: 'PHOTOSYNTHESIS' }).waitFor();
    await card.getByText('Theory & Image Course').waitFor();
    await expect(card.locator('img').getAttribute('src')).resolves.toMatch(/^\/images\/demo\//);
    await card.getByRole('link', { name: /Continue/ }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await progress(page, 30);
    await page.context().close();
  });

  it('creates a 10-topic video-and-theory course for a paid member', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir, { plan: 'monthly' });

    await page.goto('/create');
    await page.getByText('Select number of sub topics').waitFor();
    const title = 'The Complete History of Modern Astronomy and Space Exploration for Beginners';
    await page.getByLabel('Topic', { exact: true }).fill(title);
    await page.getByLabel('Sub Topic 1').fill('Black Holes');
    await page.getByRole('radio', { name: '10' }).check();
    await page.getByRole('radio', { name: 'Video & Theory Course' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();

    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();
    await expect(page.getByTestId('outline').locator(':scope > li').count()).resolves.toBe(10);
    await page.getByRole('button', { name: 'Generate Course' }).click();

    await page.waitForURL(/\/course\/[\w-]+$/);
    // Demo mode's videos are made up: a stand-in names the video instead of a broken player.
    const standIn = page.getByTestId('lesson-video-standin');
    await standIn.waitFor();
    await expect(standIn.innerText()).resolves.toContain('Video:');
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    await page.getByTestId('lesson-theory').getByText('a summary').waitFor();
    const outline = page.getByRole('navigation', { name: 'Course topics' });
    await expect(outline.getByRole('listitem').getByRole('link').count()).resolves.toBe(20);
    // Each topic ends with its quiz, and the course with the final exam.
    await expect(outline.getByTestId('quiz-link').count()).resolves.toBe(10);
    await expect(outline.getByTestId('exam-link').count()).resolves.toBe(1);

    const heading = page.locator('.course-title');
    await heading.locator('.title-desktop').waitFor();
    await expect(heading.innerText()).resolves.toBe(
      'The Complete History of Modern Astronomy and Space Exploration for...',
    );
    await page.setViewportSize({ width: 375, height: 800 });
    await heading.locator('.title-mobile').waitFor();
    await expect(heading.innerText()).resolves.toBe('The Complete History of Modern Astronomy...');

    await page.goto('/home');
    await page.getByTestId('course-card').getByText('Video & Theory Course').waitFor();
    await page.context().close();
  });

  it('holds a free member to the free plan, on the page and on the server', async () => {
    const page = await e2e.newPage();
    const member = await signUp(page, dataDir);
    await page.goto('/create');
    await page.getByText('For free member sub topics is limited to 5').waitFor();

    await page.getByRole('radio', { name: '10' }).click();
    await toast(page, 'For paid members only');
    await expect(page.getByRole('radio', { name: '5' }).isChecked()).resolves.toBe(true);
    await page.getByRole('radio', { name: 'Video & Theory Course' }).click();
    await expect(
      page.getByRole('radio', { name: 'Theory & Image Course' }).isChecked(),
    ).resolves.toBe(true);

    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Please fill in all required fields: Topic');
    expect(page.url()).toMatch(/\/create$/);
    // Without material a sub-topic is needed, and the message says which field.
    await page.getByLabel('Topic', { exact: true }).fill('Chess');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Please fill in all required fields: Sub Topic, or paste text');
    expect(page.url()).toMatch(/\/create$/);

    const remove = page.getByRole('button', { name: 'Remove Sub-Topic' });
    await expect(remove.count()).resolves.toBe(0);
    for (let i = 0; i < 4; i += 1)
      await page.getByRole('button', { name: 'Add Sub-Topic' }).click();
    await expect(page.getByRole('textbox', { name: /^Sub Topic/ }).count()).resolves.toBe(5);
    await page.getByRole('button', { name: 'Add Sub-Topic' }).click();
    await toast(page, 'You can only add 5 sub topics');
    await expect(page.getByRole('textbox', { name: /^Sub Topic/ }).count()).resolves.toBe(5);
    for (let i = 0; i < 4; i += 1) await remove.click();
    await expect(page.getByRole('textbox', { name: /^Sub Topic/ }).count()).resolves.toBe(1);
    await expect(remove.count()).resolves.toBe(0);

    // The server refuses the same choices when the page is bypassed.
    for (const form of [
      { topic: 'Chess', subtopic: 'Openings', topicCount: '10', type: 'text' },
      { topic: 'Chess', subtopic: 'Openings', topicCount: '5', type: 'video' },
    ]) {
      const response = await page.request.post('/create', { form, maxRedirects: 0 });
      expect(response.status()).toBe(403);
      await expect(response.text()).resolves.toContain('For paid members only');
    }
    // The app's own SQLite file, opened beside it (tests/support/members.ts).
    const stored = await appDatabase(dataDir)
      .select()
      .from(outlines)
      .where(eq(outlines.userId, member.id));
    expect(stored).toEqual([]);
    await page.context().close();
  });

  it('turns the progress circle into the Certificate link at 100%', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    // A two-lesson course an API client brought, already written.
    const lesson = (title: string) => ({ title, theory: `<p>All about ${title}.</p>` });
    const created = await page.request.post('/api/course', {
      data: {
        mainTopic: 'Knots',
        type: 'text',
        content: {
          knots: [{ title: 'Basics', subtopics: [lesson('Bowline'), lesson('Reef Knot')] }],
        },
      },
    });
    expect(created.status()).toBe(200);
    const { courseId } = (await created.json()) as { courseId: string };

    await page.goto(`/course/${courseId}`);
    await page.getByTestId('lesson-theory').getByText('All about Bowline.').waitFor();
    await progress(page, 50);
    await lessonLink(page, 'Reef Knot').click();
    const certificate = page.getByRole('link', { name: 'Certificate' });
    await certificate.waitFor();
    await expect(page.getByTestId('progress').count()).resolves.toBe(0);
    await expect(certificate.getAttribute('href')).resolves.toBe(`/certificate/${courseId}`);
    await page.context().close();
  });

  it('works without JavaScript, from /create to the first lesson', async () => {
    const context = await e2e.browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await signUp(page, dataDir);
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Gardening');
    await page.getByLabel('Sub Topic 1').fill('Soil');
    await page.getByRole('button', { name: 'Add Sub-Topic' }).click();
    await page.getByLabel('Sub Topic 2').fill('Compost');
    await expect(page.getByLabel('Sub Topic 1').inputValue()).resolves.toBe('Soil');
    await page.getByRole('button', { name: 'Submit' }).click();

    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor({ timeout: 20_000 });
    await expect(page.getByTestId('outline').getByRole('heading').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['Soil', 'Compost']),
    );
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page
      .getByTestId('lesson-theory')
      .getByText('Understanding Soil in Gardening')
      .waitFor({ timeout: 20_000 });
    await context.close();
  });

  /** A written course of four lessons, none studied yet; its lesson ids in order. */
  async function unstudiedCourse(memberId: string) {
    const courseId = await insertCourse(dataDir, memberId, {
      mainTopic: 'Knitting',
      lessons: 4,
      allDone: false,
    });
    const db = appDatabase(dataDir);
    await db.update(lessons).set({ done: false }).where(eq(lessons.courseId, courseId));
    const rows = await db
      .select({ id: lessons.id })
      .from(lessons)
      .where(eq(lessons.courseId, courseId))
      .orderBy(lessons.id);
    return { courseId, ids: rows.map((row) => row.id) };
  }
  const doneLessons = async (courseId: string) =>
    (
      await appDatabase(dataDir)
        .select({ title: lessons.title, done: lessons.done })
        .from(lessons)
        .where(eq(lessons.courseId, courseId))
    )
      .filter((lesson) => lesson.done)
      .map((lesson) => lesson.title);

  it('marks only the lesson the member opens: prefetch, reloads of data and revalidation change nothing', async () => {
    const member = await createMember(dataDir);
    const context = await e2e.browser.newContext({ baseURL });
    await signInAs(context, baseURL, dataDir, member);
    const { courseId, ids } = await unstudiedCourse(member.id);

    // The server renders a lesson (as a link preview or a bare GET would): nothing is marked.
    const bare = await context.request.get(`/course/${courseId}?lesson=${ids[2]}`);
    expect(bare.status()).toBe(200);
    expect(await doneLessons(courseId)).toEqual([]);

    const page = await context.newPage();
    await page.goto(`/course/${courseId}`);
    await progress(page, 25);
    expect(await doneLessons(courseId)).toEqual(['Lesson 1']);

    // Hovering a link prefetches that lesson's data; it is not opened.
    const prefetched = page.waitForRequest(
      (request) => request.url().includes('.data') && request.url().includes(`lesson=${ids[3]}`),
    );
    await lessonLink(page, 'Lesson 4').hover();
    await prefetched;
    await page.evaluate(async () => {
      const router = (window as unknown as { __remixRouter: { revalidate: () => Promise<void> } })
        .__remixRouter;
      await router.revalidate();
      await router.revalidate();
    });
    await page.waitForTimeout(500);
    expect(await doneLessons(courseId)).toEqual(['Lesson 1']);

    await lessonLink(page, 'Lesson 3').click();
    await progress(page, 50);
    expect((await doneLessons(courseId)).sort()).toEqual(['Lesson 1', 'Lesson 3']);
    await context.close();
  });

  it('without JavaScript, opening a lesson from the sidebar marks it done', async () => {
    const member = await createMember(dataDir);
    const context = await e2e.browser.newContext({ baseURL, javaScriptEnabled: false });
    await signInAs(context, baseURL, dataDir, member);
    const { courseId } = await unstudiedCourse(member.id);
    const page = await context.newPage();
    await page.goto(`/course/${courseId}`);
    await page.getByRole('button', { name: 'Open Lesson 3' }).click();
    await page.getByRole('heading', { level: 2, name: 'Lesson 3' }).waitFor();
    expect(new URL(page.url()).searchParams.get('lesson')).toMatch(/^\d+$/);
    expect(await doneLessons(courseId)).toEqual(['Lesson 3']);
    await expect(page.getByTestId('progress').getAttribute('aria-valuenow')).resolves.toBe('25');
    await context.close();
  });
});
