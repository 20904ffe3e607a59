import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MOCK_RIGHT_OPTION_START } from '../../mocks/ai-answers';
import { useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * A new member takes a topic quiz in a real browser against the production build in demo mode:
 * the AI mock writes the course, its lessons and its quizzes.
 */
describe('topic quizzes in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  /** Picks the right option of every question but those in `wrong`; returns the question count. */
  async function answer(page: Page, wrong: number[]) {
    const questions = page.locator('.quiz-form fieldset');
    await questions.first().waitFor({ timeout: 90_000 });
    const count = await questions.count();
    for (let i = 0; i < count; i += 1) {
      const options = questions.nth(i).getByRole('radio');
      const right = questions
        .nth(i)
        .getByRole('radio', { name: new RegExp(`^${MOCK_RIGHT_OPTION_START}`) });
      if (wrong.includes(i)) {
        const texts = await questions.nth(i).locator('label').allInnerTexts();
        const index = texts.findIndex((text) => !text.trim().startsWith(MOCK_RIGHT_OPTION_START));
        await options.nth(index).check();
      } else await right.check();
    }
    return count;
  }

  it('takes a topic quiz, sees the score and explanations, finds the score on the course and retakes it', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);

    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Volcanoes');
    await page.getByLabel('Sub Topic 1').fill('Lava');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    const courseUrl = page.url();

    // The first topic's lessons, then its quiz.
    await page.getByTestId('lesson-theory').waitFor({ timeout: 60_000 });
    const firstTopic = page
      .getByRole('navigation', { name: 'Course topics' })
      .locator('details')
      .first();
    await firstTopic.getByRole('link', { name: 'Lava by Example' }).click();
    await page
      .getByTestId('lesson-theory')
      .getByText('Understanding Lava by Example')
      .waitFor({ timeout: 60_000 });
    const quizLink = firstTopic.getByTestId('quiz-link');
    await expect(quizLink.getByTestId('quiz-status').innerText()).resolves.toMatch(
      /not taken yet|being written/,
    );
    await quizLink.getByRole('link', { name: 'Topic quiz' }).click();
    await page.waitForURL(/\/quiz\/[\w-]+\/\d+$/);
    await page.getByRole('heading', { name: 'Quiz: Lava' }).waitFor();

    const count = await answer(page, [0]);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThanOrEqual(5);
    // Nothing on the page says which option is right before submitting.
    await expect(page.getByTestId('quiz-explanation').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Submit answers' }).click();

    await page
      .getByTestId('quiz-score')
      .getByText(`You scored ${count - 1} out of ${count}`)
      .waitFor();
    await expect(page.getByTestId('quiz-explanation').count()).resolves.toBe(count);
    await expect(page.getByTestId('quiz-explanation').first().innerText()).resolves.toContain(
      'is a lesson of Lava',
    );
    await expect(
      page.locator('[data-testid="quiz-marked"][data-correct="false"]').count(),
    ).resolves.toBe(1);
    await page.getByText('Right answer:').first().waitFor();

    // The score on the course view.
    await page.getByRole('link', { name: /Back to Volcanoes/ }).click();
    await page.waitForURL(courseUrl.replace(/\?.*$/, '') + '*');
    await firstTopic
      .getByTestId('quiz-status')
      .getByText(`best ${count - 1}/${count} · last ${count - 1}/${count}`)
      .waitFor();

    // Retake: every answer right this time.
    await firstTopic.getByRole('link', { name: 'Topic quiz' }).click();
    await page
      .getByTestId('quiz-history')
      .getByText(`Last score ${count - 1}/${count}`)
      .waitFor();
    await answer(page, []);
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByTestId('quiz-score').getByText(`You scored ${count} out of ${count}`).waitFor();
    await expect(
      page.locator('[data-testid="quiz-marked"][data-correct="false"]').count(),
    ).resolves.toBe(0);
    await page.getByRole('link', { name: 'Retake the quiz' }).click();
    await page.locator('.quiz-form fieldset').first().waitFor();
    await page.getByTestId('quiz-history').getByText('2 attempts').waitFor();

    await page.getByRole('link', { name: /Back to Volcanoes/ }).click();
    await firstTopic
      .getByTestId('quiz-status')
      .getByText(`best ${count}/${count} · last ${count}/${count}`)
      .waitFor();
    await page.goto('/home');
    await page
      .getByTestId('course-card')
      .getByTestId('quiz-results')
      .getByText(/Quizzes taken: 1\/\d+/)
      .waitFor();
    await page.context().close();
  }, 240_000);
});
