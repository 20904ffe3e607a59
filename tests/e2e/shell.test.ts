import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';

describe('the product shell in a browser', () => {
  const e2e = useBrowser();
  const { baseURL } = e2e;

  it('shows the public header, footer and demo banner', async () => {
    const page = await e2e.newPage();
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const link of ['Pricing', 'Features', 'SignIn', 'SignUp']) {
      await expect(nav.getByRole('link', { name: link, exact: true }).isVisible()).resolves.toBe(
        true,
      );
    }
    const footer = page.getByRole('navigation', { name: 'Footer' });
    for (const link of ['About', 'Privacy Policy', 'Terms', 'Contact']) {
      await expect(footer.getByRole('link', { name: link }).isVisible()).resolves.toBe(true);
    }
    // The current year (issue 31: it said 2024 in 2026).
    await expect(page.locator('footer').innerText()).resolves.toContain(
      `© ${new Date().getFullYear()} CourseGen`,
    );
    await expect(page.getByTestId('demo-banner').innerText()).resolves.toMatch(
      /AI and payments are simulated/,
    );
    await page.context().close();
  });

  it('keeps dark mode across a reload', async () => {
    const page = await e2e.newPage();
    await page.goto('/');
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('light');
    await page.getByTestId('theme-toggle').click();
    await page.waitForSelector('html[data-theme="dark"]');
    await page.reload();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await expect(page.locator('html').getAttribute('class')).resolves.toBe('dark');
    await page.context().close();
  });

  it('shows the not-found page with the image for the theme', async () => {
    const page = await e2e.newPage();
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByTestId('not-found-day').isVisible()).resolves.toBe(true);
    await page.getByTestId('theme-toggle').click();
    await page.waitForSelector('html[data-theme="dark"]');
    await expect(page.getByTestId('not-found-night').isVisible()).resolves.toBe(true);
    await page.context().close();
  });

  it('answers the healthcheck with the database and Redis ok', async () => {
    const response = await fetch(`${baseURL}/healthz`);
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toEqual({
      status: 'ok',
      database: 'ok',
      redis: 'ok',
      pid: expect.any(Number),
      // The release that answers, as package.json names it.
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      // Nothing has had to be restarted; no write waits.
      restarts: {},
      writes: { running: 0, waiting: 0, refused: 0 },
    });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
