import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { writeKnobs } from '../../mocks/knobs';
import { TUTOR_FAILED_MESSAGE } from '~/domain/tutor';
import { useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * A new member watches a lesson being written and asks its tutor, in a real browser against the
 * production build in demo mode. The AI mock writes slowly (MOCK_AI_STREAM_CHUNK_MS), so the
 * text can be seen growing.
 */
describe('streamed lessons and the tutor in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;
  afterEach(() => {
    fs.rmSync(path.join(dataDir, 'mock-knobs.json'), { force: true });
  });

  /** Waits until the element's text is longer than it was: it grows while we watch. */
  async function seesGrow(page: Page, testId: string, locator: Locator) {
    await locator.waitFor();
    const before = (await locator.innerText()).length;
    await page.waitForFunction(
      ([id, length]) =>
        (document.querySelector(`[data-testid="${id}"]`)?.textContent?.length ?? 0) > length + 20,
      [testId, before] as const,
    );
  }

  it('shows a lesson as it is written, then the tutor answers, streaming, and remembers', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Photosynthesis');
    await page.getByLabel('Sub Topic 1').fill('Chlorophyll');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();

    // The model writes a few words every 150 ms: a lesson takes several seconds.
    writeKnobs(dataDir, { MOCK_AI_LATENCY_MS: 300, MOCK_AI_STREAM_CHUNK_MS: 150 });
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);

    const draft = page.getByTestId('lesson-draft');
    await seesGrow(page, 'lesson-draft', draft);
    // The draft is text: the model's Markdown is not turned into markup before it is sanitized.
    await expect(draft.innerText()).resolves.toContain('## Understanding Chlorophyll');
    await expect(draft.locator('h2, h3, strong').count()).resolves.toBe(0);

    // The final, sanitized lesson replaces it.
    const theory = page.getByTestId('lesson-theory');
    await theory
      .getByRole('heading', { name: 'Understanding Chlorophyll in Photosynthesis' })
      .waitFor({ timeout: 30_000 });
    await expect(draft.count()).resolves.toBe(0);

    const tutor = page.getByRole('complementary', { name: 'Ask the tutor' });
    await tutor.getByLabel('Your question').fill('How does chlorophyll capture light?');
    await tutor.getByRole('button', { name: 'Ask', exact: true }).click();
    await seesGrow(page, 'tutor-streaming', tutor.getByTestId('tutor-streaming'));
    const answer = tutor.getByTestId('tutor-answer').first();
    await answer.waitFor({ timeout: 20_000 });
    await answer.locator('strong', { hasText: 'Chlorophyll in Photosynthesis' }).waitFor();
    await expect(tutor.getByTestId('tutor-streaming').count()).resolves.toBe(0);

    // A failed answer says so, keeps nothing, and can be asked again.
    writeKnobs(dataDir, {
      MOCK_AI_STREAM_CHUNK_MS: 20,
      MOCK_AI_FAIL_FIRST: 1,
      MOCK_AI_FAIL_MATCH: 'stomata',
    });
    // Asked from the keyboard, as in every chat: Shift+Enter adds a line (sending would have
    // emptied the box), Enter sends.
    const box = tutor.getByLabel('Your question');
    await box.fill('Does chlorophyll sit');
    await box.press('Shift+Enter');
    await box.pressSequentially('near the stomata?');
    await expect(box.inputValue()).resolves.toBe('Does chlorophyll sit\nnear the stomata?');
    await expect(tutor.locator('.tutor-question').count()).resolves.toBe(1);
    await box.press('Enter');
    const failure = tutor.getByRole('alert');
    await failure.getByText(TUTOR_FAILED_MESSAGE).waitFor();
    await failure.getByRole('button', { name: 'Ask again' }).click();
    await expect.poll(() => tutor.getByTestId('tutor-answer').count(), { timeout: 20_000 }).toBe(2);
    await expect(failure.count()).resolves.toBe(0);

    await page.reload();
    const conversation = page.getByTestId('tutor-conversation');
    await conversation.getByText('How does chlorophyll capture light?').waitFor();
    await conversation.getByText('Does chlorophyll sit near the stomata?').waitFor();
    await expect(conversation.getByTestId('tutor-answer').count()).resolves.toBe(2);
    await expect(conversation.locator(':scope > li').count()).resolves.toBe(4);
    await page.context().close();
  });
});
