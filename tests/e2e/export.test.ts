import fs from 'node:fs';
import type { Download } from 'playwright-core';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { insertCourse } from '../support/courses';
import { signUp } from '../support/members';

describe('exporting a course', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;

  async function saved(download: Download): Promise<Buffer> {
    const file = await download.path();
    return fs.readFileSync(file!);
  }

  it('downloads the course as Markdown and as PDF from the course view and /home', async () => {
    const context = await e2e.browser.newContext({ baseURL, acceptDownloads: true });
    const page = await context.newPage();
    const member = await signUp(page, dataDir, { name: 'Ada Lovelace' });
    const courseId = await insertCourse(dataDir, member.id, {
      mainTopic: 'Introduction to Astronomy',
      lessons: 6,
      allDone: true,
    });
    const lessons = ['Lesson 1', 'Lesson 2', 'Lesson 3', 'Lesson 4', 'Lesson 5', 'Lesson 6'];

    await page.goto(`/course/${courseId}`);
    const [markdown] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Markdown of Introduction to Astronomy' }).click(),
    ]);
    expect(markdown.suggestedFilename()).toBe('introduction-to-astronomy.md');
    const text = (await saved(markdown)).toString('utf8');
    expect(text.startsWith('# Introduction to Astronomy\n')).toBe(true);
    for (const title of lessons) expect(text).toContain(`### ${title}\n`);

    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF of Introduction to Astronomy' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe('introduction-to-astronomy.pdf');
    const parser = new PDFParse({ data: new Uint8Array(await saved(pdf)) });
    const parsed = await parser.getText();
    await parser.destroy();
    expect(parsed.text).toContain('Introduction to Astronomy');
    for (const title of lessons) expect(parsed.text).toContain(title);
    // Title page, outline and one page for each of the three topics.
    expect(parsed.total).toBeGreaterThanOrEqual(5);
    expect(parsed.total).toBeLessThan(20);

    // The /home card offers the same downloads.
    await page.goto('/home');
    const card = page.getByTestId('course-card');
    const [fromHome] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('link', { name: 'Download PDF of Introduction to Astronomy' }).click(),
    ]);
    expect(fromHome.suggestedFilename()).toBe('introduction-to-astronomy.pdf');
    await context.close();
  });

  it("answers 404 for another member's course export", async () => {
    const context = await e2e.browser.newContext({ baseURL });
    const page = await context.newPage();
    const owner = await signUp(page, dataDir, { name: 'Grace Hopper' });
    const courseId = await insertCourse(dataDir, owner.id, {
      mainTopic: 'Compilers',
      lessons: 2,
      allDone: true,
    });
    await context.clearCookies();
    await signUp(page, dataDir, { name: 'Alan Turing' });
    const response = await page.request.get(`/course/${courseId}/export.md`);
    expect(response.status()).toBe(404);
    await context.close();
  });
});
