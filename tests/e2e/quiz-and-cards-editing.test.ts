import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MOCK_RIGHT_OPTION_START } from '../../mocks/ai-answers';
import { hydrated, useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * The author's last word on a quiz and on the cards of a changed lesson (issue 39, ADR 0061), in
 * a real browser against the production build in demo mode (the AI mock writes the course).
 */
describe('editing a quiz and rewriting the cards of a changed lesson in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  async function createCourse(page: Page) {
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Volcanoes');
    await page.getByLabel('Sub Topic 1').fill('Lava');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').waitFor({ timeout: 60_000 });
    return page.url();
  }

  const noSidewaysScroll = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  const AUTHORS_QUESTION = 'Which answer did the author choose?';
  const AUTHORS_ANSWER = 'The one the author wrote';

  for (const { viewport, javaScript } of [
    { viewport: { width: 1280, height: 800 }, javaScript: true },
    { viewport: { width: 390, height: 844 }, javaScript: false },
  ])
    it(`edits a question and its right option, then takes the quiz and is marked by them (${viewport.width} px, JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const page = await e2e.newPage({ viewport });
      await signUp(page, dataDir);
      await createCourse(page);
      const firstTopic = page
        .getByRole('navigation', { name: 'Course topics' })
        .locator('details')
        .first();
      await firstTopic.getByRole('link', { name: 'Topic quiz' }).click();
      await page.waitForURL(/\/quiz\/[\w-]+\/\d+$/);
      // The quiz page looks again while the quiz is being written, then offers to edit it.
      await page.getByTestId('edit-quiz').waitFor({ timeout: 90_000 });
      const quizUrl = page.url();

      const author = javaScript
        ? page
        : await e2e.newPage({
            viewport,
            javaScriptEnabled: false,
            storageState: await page.context().storageState(),
          });
      await author.goto(`${quizUrl}/edit`);
      if (javaScript) await hydrated(author);
      expect(await noSidewaysScroll(author)).toBe(true);
      const first = author.getByRole('group', { name: 'Question 1', exact: true });
      await first.getByLabel('Question', { exact: true }).fill(AUTHORS_QUESTION);
      // A wrong option becomes the author's own answer, and the right one.
      const options = await Promise.all(
        [0, 1, 2, 3].map((slot) =>
          first.getByLabel(`Option ${slot + 1}`, { exact: true }).inputValue(),
        ),
      );
      const slot = options.findIndex((option) => !option.startsWith(MOCK_RIGHT_OPTION_START));
      await first.getByLabel(`Option ${slot + 1}`, { exact: true }).fill(AUTHORS_ANSWER);
      await first.getByLabel(`Option ${slot + 1} is the right answer`).check();
      await first.getByLabel('Explanation').fill('The author has the last word.');
      await author.getByRole('button', { name: 'Save quiz' }).click();
      await author.waitForURL(/\/quiz\/[\w-]+\/\d+$/);

      // Taking the quiz: the new question, marked by the new right option.
      const questions = author.locator('.quiz-form fieldset');
      await questions.first().waitFor();
      await expect(questions.first().locator('legend').innerText()).resolves.toBe(AUTHORS_QUESTION);
      const count = await questions.count();
      await questions.first().getByRole('radio', { name: AUTHORS_ANSWER }).check();
      for (let i = 1; i < count; i += 1)
        await questions
          .nth(i)
          .getByRole('radio', { name: new RegExp(`^${MOCK_RIGHT_OPTION_START}`) })
          .check();
      await author.getByRole('button', { name: 'Submit answers' }).click();
      await author
        .getByTestId('quiz-score')
        .getByText(`You scored ${count} out of ${count}`)
        .waitFor();
      await expect(author.getByTestId('quiz-explanation').first().innerText()).resolves.toBe(
        'The author has the last word.',
      );
      await page.context().close();
      if (author !== page) await author.context().close();
    }, 180_000);

  it('offers the cards of an edited lesson for rewriting, and rewrites them', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    const courseUrl = await createCourse(page);
    const cardsUrl = `${courseUrl}/cards`;

    // The first lesson's cards are written (after every lesson, behind them in the queue).
    await page.goto(cardsUrl);
    const firstLesson = page.getByTestId('lesson-cards').first();
    await firstLesson.getByTestId('course-card-item').first().waitFor({ timeout: 120_000 });
    await expect(page.getByTestId('deck-changed').count()).resolves.toBe(0);

    // The author edits that lesson.
    await page.goto(courseUrl);
    await page.getByTestId('edit-lesson').click();
    await page.waitForURL(/\/lesson\/\d+\/edit$/);
    await hydrated(page);
    const markdown = page.getByLabel('Text (Markdown)');
    await markdown.fill(`${await markdown.inputValue()}\n\nLava cools into basalt.`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/course\/[\w-]+\?lesson=\d+$/);

    // The course view says so under the topic, and links to the offer.
    const changed = page.getByTestId('topic-cards-changed');
    await expect(changed.innerText()).resolves.toBe(
      'a lesson changed since its cards were written',
    );
    await changed.click();
    await page.waitForURL(/\/cards#topic-\d+$/);
    // Its cards are offered for rewriting, and only its.
    const offer = firstLesson.getByTestId('deck-changed');
    await expect(offer.innerText()).resolves.toContain(
      'This lesson changed since these cards were written.',
    );
    await expect(page.getByTestId('deck-changed').count()).resolves.toBe(1);
    await offer.getByRole('button', { name: 'Rewrite cards' }).click();
    // Written again by the deck's job: the offer is gone and the lesson has its cards.
    await expect.poll(() => page.getByTestId('deck-changed').count(), { timeout: 60_000 }).toBe(0);
    await expect
      .poll(() => firstLesson.getByTestId('deck-rewriting').count(), { timeout: 60_000 })
      .toBe(0);
    await expect(firstLesson.getByTestId('course-card-item').count()).resolves.toBeGreaterThan(0);
    await page.reload();
    await expect(page.getByTestId('deck-changed').count()).resolves.toBe(0);
    await page.context().close();
  }, 240_000);
});
