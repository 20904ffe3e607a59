import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { signInAs, signUp, type Member } from '../support/members';

/**
 * Shaping an outline on /topics with JavaScript off, by keyboard, as the conventions promise
 * every form works (rule 18): each button posts the form and the server applies it. After a move
 * the keyboard is back on the item moved; a refused change says why on the page.
 */
describe('the outline editor without JavaScript', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;
  let member: Member;
  let outlineUrl: string;

  const topicTitles = (page: Page) =>
    page.getByTestId('outline').locator(':scope > li > h2').allInnerTexts();
  const lessonTitles = (page: Page, topic: number) =>
    page.getByTestId('outline-topic').nth(topic).locator('.outline-lesson-title').allInnerTexts();
  const focusedName = (page: Page) =>
    page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);

  async function plainPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await e2e.browser.newContext({
      baseURL: e2e.baseURL,
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    await signInAs(context, e2e.baseURL, dataDir, member);
    return { context, page: await context.newPage() };
  }

  beforeAll(async () => {
    const page = await e2e.newPage();
    member = await signUp(page, dataDir);
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Astronomy');
    await page.getByLabel('Sub Topic 1').fill('Telescopes');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/, { timeout: 30_000 });
    await page.getByTestId('outline').waitFor({ timeout: 30_000 });
    outlineUrl = new URL(page.url()).pathname;
    await page.context().close();
  });

  it('keeps the keyboard on the item moved, move after move', async () => {
    const { context, page } = await plainPage();
    await page.goto(outlineUrl);
    const topics = await topicTitles(page);
    const lessons = await lessonTitles(page, 1);

    // The third topic up, twice, with Enter: each answer lands on the topic moved, its up arrow
    // while it can go further and its down arrow once it is first.
    await page.getByRole('button', { name: `Move topic “${topics[2]}” up` }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === '#outline-topic-1-up');
    expect(await focusedName(page)).toBe(`Move topic “${topics[2]}” up`);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === '#outline-topic-0-down');
    expect(await focusedName(page)).toBe(`Move topic “${topics[2]}” down`);
    expect((await topicTitles(page)).slice(0, 3)).toEqual([topics[2], topics[0], topics[1]]);

    // A lesson down, to the end of its topic (now the second topic is the first one's old second).
    await page.getByRole('button', { name: `Move lesson “${lessons[0]}” down` }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === '#outline-lesson-2-1-up');
    expect(await focusedName(page)).toBe(`Move lesson “${lessons[0]}” up`);
    expect(await lessonTitles(page, 2)).toEqual([lessons[1], lessons[0]]);
    // The control is on the screen, not at the top of a long page left behind.
    const focusedBox = await page.evaluate(() => {
      const rect = document.activeElement!.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom, height: window.innerHeight };
    });
    expect(focusedBox.top).toBeGreaterThanOrEqual(0);
    expect(focusedBox.bottom).toBeLessThanOrEqual(focusedBox.height);
    await context.close();
  });

  it('says on the page why a free member’s sixth topic is refused, not “All changes saved”', async () => {
    const { context, page } = await plainPage();
    await page.goto(outlineUrl);
    const before = await topicTitles(page);
    expect(before).toHaveLength(5);

    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: 'Add topic' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    await page.waitForLoadState();
    await expect(page.getByRole('alert').innerText()).resolves.toBe('For paid members only');
    await expect(page.getByTestId('outline-save').innerText()).resolves.toBe(
      'Not saved: For paid members only',
    );
    await expect(page.getByText('All changes saved').count()).resolves.toBe(0);
    expect(await topicTitles(page)).toEqual(before);
    await context.close();
  });

  it('shows the “Rewrite the outline” box as the product’s other fields', async () => {
    const { context, page } = await plainPage();
    const look = (selector: string) =>
      page.locator(selector).evaluate((field) => {
        const style = getComputedStyle(field);
        return {
          border: `${style.borderTopStyle} ${style.borderTopWidth} ${style.borderTopColor}`,
          radius: style.borderTopLeftRadius,
          padding: `${style.paddingTop} ${style.paddingLeft}`,
          font: `${style.fontSize} ${style.fontFamily}`,
          height: field.getBoundingClientRect().height,
        };
      });
    await page.goto('/create');
    const topicField = await look('input[name="topic"]');
    await page.goto(outlineUrl);
    expect(await look('#rewrite-instruction')).toEqual(topicField);
    await context.close();
  });
});
