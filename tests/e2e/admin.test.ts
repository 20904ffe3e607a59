import { count } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { courses, users } from '../../db/schema';
import { signInInBrowser } from '../support/accounts';
import { useBrowser } from '../support/browser';
import { appDatabase, signUp } from '../support/members';

/** The admin panel as the seeded main admin uses it, in a real e2e.browser. */
describe('the admin panel in a browser', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;

  const toast = (page: Page, text: string) =>
    page.locator('.Toastify').getByText(text).first().waitFor();
  const adminRow = (page: Page, email: string) =>
    page.getByTestId('admin-table').locator('tr', { hasText: email });

  it('dashboard, adding and removing an admin, members kept out, a sanitized policy', async () => {
    const memberPage = await e2e.newPage();
    const member = await signUp(memberPage, dataDir, { name: 'Future Admin' });
    await memberPage.goto('/users');
    await memberPage.waitForURL('**/home');
    await expect(
      memberPage.getByRole('link', { name: 'Admin', exact: true }).count(),
    ).resolves.toBe(0);

    const page = await e2e.newPage();
    await signInInBrowser(page, inject('adminEmail'), inject('adminPassword'));
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Admin Panel').first().waitFor();
    // The app's own SQLite file, opened beside it (tests/support/members.ts).
    const db = appDatabase(dataDir);
    const [userCount] = await db.select({ n: count() }).from(users);
    const [courseCount] = await db.select({ n: count() }).from(courses);
    await expect(page.getByTestId('stat-Users').locator('.stat-value').innerText()).resolves.toBe(
      String(userCount!.n),
    );
    await expect(page.getByTestId('stat-Courses').locator('.stat-value').innerText()).resolves.toBe(
      String(courseCount!.n),
    );
    await expect(
      page.getByTestId('donut-Users').getByRole('img').getAttribute('aria-label'),
    ).resolves.toMatch(/^Users: Paid: \d+, Free: \d+$/);

    // Add the member as admin from the Users table, found by search.
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Users', exact: true })
      .click();
    await page.getByLabel('Search').fill(member.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/users\?q=/);
    await adminRow(page, member.email).getByRole('button', { name: 'Add Admin' }).click();
    await toast(page, 'Admin added');

    await memberPage.goto('/dashboard');
    await memberPage.getByText('Admin Panel').first().waitFor();
    expect(new URL(memberPage.url()).pathname).toBe('/dashboard');

    await page.goto('/admins');
    await expect(adminRow(page, inject('adminEmail')).innerText()).resolves.toContain('Main Admin');
    await expect(
      adminRow(page, inject('adminEmail')).getByRole('button', { name: 'Remove Admin' }).count(),
    ).resolves.toBe(0);
    await adminRow(page, member.email).getByRole('button', { name: 'Remove Admin' }).click();
    await toast(page, 'Admin removed');
    await memberPage.goto('/dashboard');
    await memberPage.waitForURL('**/home');

    // A policy with a script: saved, shown on /terms without it, and nothing runs.
    await page.goto('/editterms');
    const editor = page.getByRole('textbox', { name: 'Terms' });
    await expect(editor.getAttribute('placeholder')).resolves.toBe(
      'Write your terms here in HTML format',
    );
    await editor.fill(
      '<h2>House rules</h2><p>Be kind.</p><script>window.__pwned = true</script><img src=x onerror="window.__pwned = true">',
    );
    await page.getByTestId('policy-preview').getByText('Be kind.').waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Policy saved');
    await page.goto('/terms');
    await page.getByText('Be kind.').waitFor();
    const html = await page.locator('main').innerHTML();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    await expect(page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).resolves.toBe(
      undefined,
    );

    // The audit log shows who did what.
    await page.goto('/dashboard');
    const audit = await page.getByTestId('audit').innerText();
    expect(audit).toContain('add-admin');
    expect(audit).toContain('remove-admin');
    expect(audit).toContain('save-policy');

    await page.context().close();
    await memberPage.context().close();
  });

  it('opens and closes the sidebar drawer on a phone', async () => {
    const context = await e2e.browser.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await signInInBrowser(page, inject('adminEmail'), inject('adminPassword'));
    await page.goto('/dashboard');
    const sidebar = page.getByRole('navigation', { name: 'Admin' });
    const inView = async () => {
      const box = await sidebar.boundingBox();
      return Boolean(box && box.x + box.width > 1);
    };
    expect(await inView()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.waitForTimeout(300);
    expect(await inView()).toBe(true);
    await page.getByTestId('drawer-overlay').click({ position: { x: 370, y: 400 } });
    await page.waitForTimeout(300);
    expect(await inView()).toBe(false);
    await context.close();
  });
});
