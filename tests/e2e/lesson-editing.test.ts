import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * A new author edits a written lesson and goes back in its history (issue 39, ADR 0059), in a
 * real browser against the production build in demo mode, on a desktop and on a 390 px phone.
 */
describe('editing a lesson in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  async function createCourse(page: Page) {
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Beekeeping');
    await page.getByLabel('Sub Topic 1').fill('Hives');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').waitFor({ timeout: 60_000 });
  }

  const noSidewaysScroll = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])
    it(`edits a lesson, reloads and sees it, then restores the generated version (${viewport.width} px)`, async () => {
      const page = await e2e.newPage({ viewport });
      await signUp(page, dataDir);
      await createCourse(page);
      const lesson = page.getByTestId('lesson');
      const generatedTitle = (await lesson.locator(':scope > h2').innerText()).trim();
      const generatedText = (await page.getByTestId('lesson-theory').innerText()).trim();

      await page.getByTestId('edit-lesson').click();
      await page.waitForURL(/\/lesson\/\d+\/edit$/);
      await hydrated(page);
      expect(await noSidewaysScroll(page)).toBe(true);
      const markdown = page.getByLabel('Text (Markdown)');
      await page.getByLabel('Title').fill('Hives, my way');
      await markdown.fill(`${await markdown.inputValue()}\n\nA **sentence** I added.`);
      // The live preview shows what readers will see.
      await expect
        .poll(() => page.getByTestId('edit-preview').innerHTML(), { timeout: 10_000 })
        .toContain('A <strong>sentence</strong> I added.');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/course\/[\w-]+\?lesson=\d+$/);

      await page.reload();
      await expect.poll(() => lesson.locator(':scope > h2').innerText()).toBe('Hives, my way');
      expect(await page.getByTestId('lesson-theory').innerText()).toContain('A sentence I added.');

      await page.getByTestId('lesson-history-link').click();
      await page.waitForURL(/\/lesson\/\d+\/history$/);
      expect(await noSidewaysScroll(page)).toBe(true);
      const versions = page.getByTestId('version');
      expect(await versions.count()).toBe(2);
      expect(await versions.first().innerText()).toContain('Edited by you');
      await page.getByRole('link', { name: 'View version 1' }).click();
      await expect
        .poll(() => page.getByTestId('viewed-version').innerText())
        .toContain(generatedText.slice(0, 40));
      // The comparison marks the added line in words and a sign, not only in colour.
      const diff = page.getByTestId('line-diff');
      const added = diff.locator('[data-kind="added"]');
      await expect(added.last().textContent()).resolves.toBe('+Added: A **sentence** I added.');
      await expect(added.last().locator('ins').count()).resolves.toBe(1);
      await expect(diff.locator('del').count()).resolves.toBe(0);
      await expect(diff.locator('[data-kind="same"]').first().textContent()).resolves.toContain(
        'Unchanged: ',
      );
      await expect(page.getByTestId('line-diff-summary').innerText()).resolves.toMatch(
        /^\d lines? added, 0 removed/,
      );
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      await page.waitForURL(/\/course\/[\w-]+\?lesson=\d+$/);
      await expect.poll(() => lesson.locator(':scope > h2').innerText()).toBe(generatedTitle);
      expect(await page.getByTestId('lesson-theory').innerText()).not.toContain(
        'A sentence I added.',
      );
      expect((await page.getByTestId('lesson-theory').innerText()).trim()).toBe(generatedText);
      await page.context().close();
    }, 120_000);
});
