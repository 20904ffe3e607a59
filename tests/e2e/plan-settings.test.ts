import { eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { settings } from '../../db/schema';
import { signInInBrowser } from '../support/accounts';
import { hydrated, useBrowser } from '../support/browser';
import { appDatabase } from '../support/members';
import { pageProblems } from '../support/page-checks';

/**
 * The main admin sells at their own price (issue 40, ADR 55): the settings page on a phone, a new
 * monthly price on /pricing, and the change rolled back from its entry. Every browser test shares
 * one app, so the plans are the product's own again afterwards, whatever happens.
 */
describe('plan settings in a browser', () => {
  const e2e = useBrowser();

  it('the main admin sets the monthly price on a phone, /pricing shows it, and rolls it back', async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    const monthlyCost = async () => {
      await page.goto('/pricing');
      return page.getByTestId('plan-monthly').locator('.plan-cost').innerText();
    };
    try {
      await signInInBrowser(page, inject('adminEmail'), inject('adminPassword'));
      await page.goto('/admin/settings');
      await hydrated(page);
      expect(await pageProblems(page)).toEqual([]);

      const monthly = page.getByRole('group', { name: 'Monthly Plan' });
      await monthly.getByLabel('Price in USD per month').fill('-3');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page
        .locator('.Toastify')
        .getByText('Monthly Plan price must be an amount between 0.01 and 10,000')
        .waitFor();

      await monthly.getByLabel('Price in USD per month').fill('12');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.locator('.Toastify').getByText('Plans saved').waitFor();
      await expect(monthlyCost()).resolves.toBe('$12');
      expect(await pageProblems(page)).toEqual([]);

      await page.goto('/admin/settings');
      await hydrated(page);
      const change = page.getByTestId('plan-changes').getByRole('row').nth(1);
      await expect(change.innerText()).resolves.toContain('Monthly Plan price: $8 → $12');
      expect(await pageProblems(page)).toEqual([]);
      await change.getByRole('button', { name: /^Roll back/ }).click();
      await page.locator('.Toastify').getByText('Plans rolled back').waitFor();
      await expect(monthlyCost()).resolves.toBe('$8');
    } finally {
      // The product's own plans for the browser tests that follow (read again within a second).
      await appDatabase(e2e.dataDir).delete(settings).where(eq(settings.key, 'plans'));
    }
  });
});
