import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * A new member reviews the flashcards of a finished course in a real browser against the
 * production build in demo mode (ADR 0033): the AI mock writes the course and every lesson's
 * deck (three cards), FSRS schedules each grade, and the page's own counts show where each card
 * went. The day after is reached through the scheduler's clock (demo mode's `?now=`), not by
 * waiting.
 */
describe('flashcards in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;
  const DAY = 24 * 3600 * 1000;
  let page: Page;

  const count = async (testId: string) => Number(await page.getByTestId(testId).innerText());
  const counts = async () => [await count('due-today'), await count('due-tomorrow')];
  const question = () => page.getByTestId('flashcard-question').innerText();

  /** Space shows the answer, the key grades it; resolves once the page moved to the next card. */
  async function gradeWithKeys(key: '1' | '2' | '3' | '4') {
    const today = await count('due-today');
    await page.keyboard.press('Space');
    await page.getByTestId('flashcard-answer').waitFor();
    await page.keyboard.press(key);
    await expect.poll(() => count('due-today'), { timeout: 15_000 }).toBe(today - 1);
  }

  it('finishes a course, reviews its due cards with the keyboard and sees FSRS put them off', async () => {
    page = await e2e.newPage();
    await signUp(page, dataDir);
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Volcanoes');
    await page.getByLabel('Sub Topic 1').fill('Lava');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').waitFor({ timeout: 60_000 });

    // Study every lesson (each is marked done once opened): the course is finished.
    const outline = page.getByRole('navigation', { name: 'Course topics' });
    const lessonLinks = outline.locator('a[data-state]');
    await expect
      .poll(() => outline.locator('a[data-state="done"]').count(), { timeout: 60_000 })
      .toBe(await lessonLinks.count());
    const lessons = await lessonLinks.count();
    expect(lessons).toBe(10);
    for (let i = 0; i < lessons; i += 1) {
      await lessonLinks.nth(i).click();
      await lessonLinks.nth(i).getByRole('img', { name: 'done' }).waitFor({ timeout: 15_000 });
    }
    const courseUrl = page.url();

    // /home counts the cards due today across the member's courses, once their decks are written.
    await expect
      .poll(
        async () => {
          await page.goto('/home');
          return page.getByTestId('cards-due-count').innerText();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe('30');
    // The course view lists each topic's cards: two lessons of three cards each.
    await page.goto(courseUrl);
    await expect(outline.getByTestId('topic-cards-status').allInnerTexts()).resolves.toEqual(
      Array(5).fill('6 cards · 6 due today'),
    );
    await page.goto('/home');
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    await page.waitForURL(/\/review$/);
    await hydrated(page);
    expect(await counts()).toEqual([30, 0]);

    // A new card: Again brings it back tomorrow; Hard in two days; Good and Easy later still.
    const buttons = page.getByRole('button', { name: /^\d (Again|Hard|Good|Easy)/ });
    await page.keyboard.press('Space');
    await expect(buttons.allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^1 Again\s+1 day$/),
      expect.stringMatching(/^2 Hard\s+2 days$/),
      expect.stringMatching(/^3 Good\s+[2-4] days$/),
      expect.stringMatching(/^4 Easy\s+\d+ days$/),
    ]);
    const first = await question();
    expect(first).toMatch(/^Which course teaches "/);
    await page.keyboard.press('1');
    await page.getByTestId('last-grade').getByText('Again: back in 1 day.').waitFor();
    expect(await counts()).toEqual([29, 1]);
    expect(await question()).not.toBe(first);

    await gradeWithKeys('2');
    await gradeWithKeys('4');
    expect(await counts()).toEqual([27, 1]);
    for (let left = 27; left > 0; left -= 1) await gradeWithKeys('3');
    await page.getByTestId('review-done').getByText('1 card will be due tomorrow').waitFor();
    expect(await counts()).toEqual([0, 1]);

    // The next day, on the scheduler's own clock: the card graded Again is due again.
    const tomorrow = new Date(Date.now() + DAY + 5 * 60_000).toISOString();
    await page.goto(`/review?now=${encodeURIComponent(tomorrow)}`);
    await hydrated(page);
    expect(await count('due-today')).toBe(1);
    // The card graded Hard falls due the day after (and any Good card fuzz put at two days).
    expect(await count('due-tomorrow')).toBeGreaterThanOrEqual(1);
    expect(await question()).toBe(first);
    await gradeWithKeys('3');
    await page.getByTestId('review-done').waitFor();
    expect(await count('due-today')).toBe(0);
  }, 240_000);

  it('corrects a wrong card and suspends another, from the review and the course', async () => {
    // Three days on, the cards graded Hard and Good are due.
    const later = new Date(Date.now() + 3 * DAY + 5 * 60_000).toISOString();
    const reviewUrl = `/review?now=${encodeURIComponent(later)}`;
    await page.goto(reviewUrl);
    await hydrated(page);
    const due = await count('due-today');
    expect(due).toBeGreaterThan(2);

    // Edit: the card shows its corrected text at once.
    const cardId = await page.getByTestId('flashcard').getAttribute('data-card-id');
    await page.getByRole('link', { name: 'Edit card' }).click();
    await page.getByRole('heading', { name: 'Edit card' }).waitFor();
    await page.getByLabel('Question').fill('Which course is about lava and magma?');
    await page.getByLabel('Answer').fill('Volcanoes');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL((url) => url.pathname === '/review');
    await page
      .getByTestId('flashcard-question')
      .getByText('Which course is about lava and magma?')
      .waitFor();
    expect(await page.getByTestId('flashcard').getAttribute('data-card-id')).toBe(cardId);
    expect(await count('due-today')).toBe(due);

    // Suspend: the card leaves the queue and the count.
    await page.getByRole('button', { name: 'Suspend card' }).click();
    await expect.poll(() => count('due-today')).toBe(due - 1);
    expect(await page.getByTestId('flashcard').getAttribute('data-card-id')).not.toBe(cardId);

    // The course's cards show both, and the suspended one can be resumed.
    await page.goto('/home');
    await page.getByRole('link', { name: 'Continue Volcanoes' }).click();
    await page.waitForURL(/\/course\/[\w-]+/);
    // A click before hydration can be lost to the page's own first navigation (a slow machine).
    await hydrated(page);
    await page
      .getByRole('navigation', { name: 'Course topics' })
      .getByRole('link', { name: 'Flashcards' })
      .first()
      .click();
    // A page left on the router's blank "Loading..." is what lazy route discovery did (ADR 43).
    await page
      .getByRole('heading', { name: /^Flashcards:/ })
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(
          `${error.message}\nat ${page.url()}:\n${(await page.content()).slice(0, 600)}`,
        );
      });
    const item = page.locator(`[data-testid="course-card-item"][data-card-id="${cardId}"]`);
    await item.getByText('Which course is about lava and magma?').waitFor();
    await expect(item.getByTestId('card-status').innerText()).resolves.toBe('suspended');
    await expect(item.innerText()).resolves.toContain('edited');
    await item.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => item.getByTestId('card-status').innerText()).not.toBe('suspended');
    await page.context().close();
  }, 120_000);
});
