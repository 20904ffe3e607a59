import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MOCK_SIMPLER_START } from '../../mocks/ai-answers';
import { hydrated, useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * A new member writes notes and regenerates a lesson in a real browser against the production
 * build in demo mode: the AI mock writes the course and the re-written lesson.
 */
describe('lesson notes and regenerate in a browser', () => {
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
    // The lesson's buttons (Regenerate, Simpler…) act through JavaScript.
    await hydrated(page);
  }

  const notesBox = (page: Page) => page.getByTestId('lesson-notes').getByLabel('My notes');
  const notesState = (page: Page, text: string) =>
    page.getByTestId('notes-state').getByText(text, { exact: true }).waitFor();

  it('writes a note, reloads and sees it; a dropped network shows Not saved and loses nothing', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    await createCourse(page);

    await notesBox(page).fill('Bees need **water** nearby.');
    await notesState(page, 'Saved');
    await page.reload();
    await expect.poll(() => notesBox(page).inputValue()).toBe('Bees need **water** nearby.');

    // The network drops while the member types: the box says so, and the text is kept, even
    // through a reload while the server cannot be reached.
    const offline = async () =>
      page.route('**/notes/*', (route) =>
        route.request().method() === 'POST'
          ? route.abort('internetdisconnected')
          : route.continue(),
      );
    await offline();
    await notesBox(page).fill('Bees need **water** nearby. Check hives weekly.');
    await notesState(page, 'Not saved');
    await expect(page.getByRole('heading', { name: 'Something went wrong' }).count()).resolves.toBe(
      0,
    );
    await page.reload();
    await expect
      .poll(() => notesBox(page).inputValue())
      .toBe('Bees need **water** nearby. Check hives weekly.');
    await notesState(page, 'Not saved');
    // Back online: the retry saves it.
    await page.unroute('**/notes/*');
    await notesState(page, 'Saved');
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await expect
      .poll(() => notesBox(page).inputValue())
      .toBe('Bees need **water** nearby. Check hives weekly.');

    // The course's notes view lists it, rendered.
    await page.getByRole('link', { name: 'My notes' }).click();
    await page.waitForURL(/\/course\/[\w-]+\/notes$/);
    const note = page.getByTestId('course-note').first();
    await note.locator('strong', { hasText: 'water' }).waitFor();
    await expect(note.innerText()).resolves.toContain('Check hives weekly.');
    await page.context().close();
  }, 180_000);

  it('a lesson report that fails offline leaves the page alone and is sent again later', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    await createCourse(page);
    const nav = page.getByRole('navigation', { name: 'Course topics' });
    const second = nav.getByRole('link', { name: 'Hives by Example' });
    await second
      .locator('[aria-label="being written"]')
      .waitFor({ state: 'detached', timeout: 60_000 });

    // Every report of an opened lesson fails, as when the connection drops.
    let failed = 0;
    await page.route('**/*.data*', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      failed += 1;
      return route.abort('internetdisconnected');
    });
    await second.click();
    await page.getByTestId('lesson-theory').getByText('Understanding Hives by Example').waitFor();
    await expect.poll(() => failed, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Something went wrong' }).count()).resolves.toBe(
      0,
    );
    await expect(second.locator('[aria-label="done"]').count()).resolves.toBe(0);

    // Back online: the report goes again and the lesson counts as studied.
    await page.unroute('**/*.data*');
    await second.locator('[aria-label="done"]').waitFor({ timeout: 20_000 });
    await page.context().close();
  }, 180_000);

  it("regenerates a lesson 'simpler', sees the new text replace the old, and restores it", async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    await createCourse(page);
    const theory = page.getByTestId('lesson-theory');
    await theory.getByText('Understanding').first().waitFor();
    const before = await theory.innerText();

    const regenerate = page.getByTestId('regenerate');
    // The quick instructions act through JavaScript: a click before hydration does nothing.
    await hydrated(page);
    await regenerate.getByRole('button', { name: 'Simpler' }).click();
    await regenerate.getByTestId('regenerate-running').waitFor();
    // The new text replaces the old once it is ready, without a reload.
    await page.waitForFunction(
      (start) =>
        document.querySelector('[data-testid="lesson-theory"]')?.textContent?.startsWith(start),
      MOCK_SIMPLER_START,
      { timeout: 60_000 },
    );
    await expect(theory.innerText()).resolves.not.toBe(before);

    await regenerate.getByRole('button', { name: 'Restore the previous version' }).click();
    await page.waitForFunction(
      (start) =>
        !document.querySelector('[data-testid="lesson-theory"]')?.textContent?.startsWith(start),
      MOCK_SIMPLER_START,
    );
    await expect(theory.innerText()).resolves.toBe(before);
    await expect(
      regenerate.getByRole('button', { name: 'Restore the previous version' }).count(),
    ).resolves.toBe(0);
    await page.context().close();
  }, 180_000);
});
