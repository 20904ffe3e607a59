import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { signUp } from '../support/members';

/**
 * What a member owns (issue 38), done as a new member does it on a phone: deleting one of two
 * courses from its /home card, after the confirmation page.
 */
describe('members own their data, in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;
  const phone = { viewport: { width: 390, height: 844 } };

  async function generate(page: Page, topic: string, pasted?: string) {
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill(topic);
    await page.getByLabel('Sub Topic 1').fill(`${topic} basics`);
    if (pasted) await page.getByLabel('Or paste text').fill(pasted);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/, { timeout: 30_000 });
    await page.getByTestId('outline').waitFor();
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').waitFor({ timeout: 30_000 });
    return new URL(page.url()).pathname;
  }

  it('deletes one of two courses: the other stays, the deleted one and its document answer 404', async () => {
    const page = await e2e.newPage(phone);
    await signUp(page, dataDir);
    const rivers = await generate(
      page,
      'Geography',
      [
        '# Rivers',
        'Rivers carry water from the hills to the sea and shape valleys as they go. '.repeat(2),
        '# Mountains',
        'Mountains form where tectonic plates collide and push rock upwards. '.repeat(2),
      ].join('\n\n'),
    );
    const sources = page.getByTestId('lesson-sources').locator('a[href^="/documents/"]');
    await sources.waitFor();
    const documentPath = new URL((await sources.getAttribute('href'))!, page.url()).pathname;
    expect((await page.goto(documentPath))!.status()).toBe(200);
    const astronomy = await generate(page, 'Astronomy');

    await page.goto('/home');
    const cards = page.getByTestId('course-card');
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByRole('link', { name: 'Delete Geography' }).click();
    await page.waitForURL(`${rivers}/delete`);
    await page.getByRole('heading', { name: 'Delete this course?' }).waitFor();
    await page.getByRole('button', { name: 'Delete course' }).click();
    await page.waitForURL(/\/home$/);
    await page.locator('.Toastify').getByText('Course deleted').waitFor();
    await expect.poll(() => cards.count()).toBe(1);
    await expect(cards.getByRole('heading').innerText()).resolves.toBe('ASTRONOMY');

    expect((await page.goto(rivers))!.status()).toBe(404);
    expect((await page.goto(documentPath))!.status()).toBe(404);
    expect((await page.goto(astronomy))!.status()).toBe(200);
    // The course view links to the same confirmation; keeping the course changes nothing.
    await page.getByRole('link', { name: 'Delete Astronomy' }).click();
    await page.getByRole('link', { name: 'Keep it' }).click();
    await page.waitForURL(new RegExp(`${astronomy}$`));
    await page.context().close();
  });
});
