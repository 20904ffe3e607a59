import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * Sharing a course as members would, in a real browser against the production build in demo
 * mode: the owner shares a finished course, a visitor reads it signed out, another member
 * copies it, the owner revokes the link and it stops working.
 */
describe('sharing a course in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  /** Opens the course bar's Share panel, reloading until every lesson is written. */
  async function openSharePanel(page: Page, courseUrl: string) {
    const deadline = Date.now() + 90_000;
    for (;;) {
      await page.goto(courseUrl);
      await page.getByTestId('share-course').locator('summary').click();
      const panel = page.getByTestId('share-course');
      if (await panel.getByRole('button', { name: 'Create link' }).isVisible()) return panel;
      await expect(panel.innerText()).resolves.toContain('once every lesson is written');
      if (Date.now() > deadline) throw new Error('the course was not finished in time');
      await page.waitForTimeout(1_000);
    }
  }

  it('shares a course, a visitor reads it, a member copies it, the owner revokes it', async () => {
    const owner = await e2e.newPage();
    await signUp(owner, dataDir);
    await owner.goto('/create');
    await owner.getByLabel('Topic', { exact: true }).fill('Beekeeping');
    await owner.getByLabel('Sub Topic 1').fill('Hives');
    await owner.getByRole('button', { name: 'Submit' }).click();
    await owner.waitForURL(/\/topics\/[\w-]+$/);
    await owner.getByTestId('outline').waitFor();
    await owner.getByRole('button', { name: 'Generate Course' }).click();
    await owner.waitForURL(/\/course\/[\w-]+$/);
    const courseUrl = owner.url();
    // The URL changes on a client-side navigation a moment before the course view renders.
    const titleLinks = owner
      .getByRole('navigation', { name: 'Course topics' })
      .locator('.lesson-title');
    await titleLinks.first().waitFor();
    const lessonTitles = await titleLinks.allInnerTexts();
    expect(lessonTitles.length).toBeGreaterThan(4);

    const panel = await openSharePanel(owner, courseUrl);
    await panel.getByRole('button', { name: 'Create link' }).click();
    const linkField = panel.getByTestId('share-link');
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(/\/share\/[\w-]{43}$/);

    // A visitor, signed out, reads every lesson; nothing says whose course it is.
    const visitor = await e2e.newPage();
    await visitor.goto(link);
    await visitor.getByRole('heading', { level: 1, name: 'Beekeeping' }).waitFor();
    const shownTitles = await visitor.getByTestId('shared-lesson-title').allInnerTexts();
    expect(shownTitles).toEqual(lessonTitles);
    await expect(visitor.getByTestId('shared-course').innerText()).resolves.not.toContain('@');
    await visitor.getByRole('link', { name: 'Sign up to copy this course' }).waitFor();

    // Another member copies it into their own courses and studies their copy.
    const reader = await e2e.newPage();
    await signUp(reader, dataDir);
    await reader.goto(link);
    await reader.getByRole('button', { name: 'Copy to my courses' }).click();
    await reader.waitForURL(/\/course\/[\w-]+$/);
    expect(reader.url()).not.toBe(courseUrl);
    await reader.getByTestId('lesson-theory').waitFor();
    await reader.goto('/home');
    await expect(reader.getByText('Beekeeping').count()).resolves.toBeGreaterThan(0);

    // The owner stops sharing; the link is gone at once.
    await owner.getByRole('button', { name: 'Stop sharing' }).click();
    await owner.getByRole('button', { name: 'Create link' }).waitFor();
    const gone = await visitor.goto(link);
    expect(gone?.status()).toBe(404);
    await visitor.getByRole('heading', { name: /not found/i }).waitFor();
  });
});
