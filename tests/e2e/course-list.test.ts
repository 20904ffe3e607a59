import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { insertCourse } from '../support/courses';
import { createMember, signInAs } from '../support/members';

/** A member with more courses than /home shows at once pages through them. */
describe('the course list in a browser', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;

  it('shows 24 of 30 courses, then all 30 after Load more, newest first', async () => {
    const member = await createMember(dataDir);
    for (let i = 1; i <= 30; i += 1) {
      await insertCourse(dataDir, member.id, {
        mainTopic: `Paging course ${i}`,
        lessons: 2,
        allDone: false,
      });
      // Distinct creation times, so "newest first" is one order.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const page = await e2e.newPage();
    await signInAs(page.context(), baseURL, dataDir, member);

    await page.goto('/home');
    const cards = page.getByTestId('course-card');
    await expect.poll(() => cards.count()).toBe(24);
    await expect(cards.first().getByRole('heading').innerText()).resolves.toBe('PAGING COURSE 30');
    const loadMore = page.getByRole('link', { name: 'Load more' });
    // Without JavaScript the same control is a link to the next page.
    expect(await loadMore.getAttribute('href')).toMatch(/^\/home\?cursor=[\w-]+$/);

    await loadMore.click();
    await expect.poll(() => cards.count()).toBe(30);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/home');
    const headings = await cards.getByRole('heading').allInnerTexts();
    expect(headings).toEqual(Array.from({ length: 30 }, (_, i) => `PAGING COURSE ${30 - i}`));
    await expect(loadMore.count()).resolves.toBe(0);
  });
});
