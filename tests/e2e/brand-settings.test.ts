import { eq, like, or } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { outboxEmails, settings } from '../../db/schema';
import { signInInBrowser } from '../support/accounts';
import { solidPng } from '../support/brand';
import { hydrated, useBrowser } from '../support/browser';
import { appDatabase, signUp } from '../support/members';
import { pageProblems } from '../support/page-checks';

/**
 * The operator's brand (issue 40, ADR 0062): the main admin names the site, gives it a colour and
 * a PNG logo on the settings page, on a phone; /pricing and the home page show both, a new
 * member's welcome email and receipt carry the name. Saved with JavaScript and without. Every
 * browser test shares one app, so the brand is the install's default again afterwards.
 */
describe('the brand in a browser', () => {
  const e2e = useBrowser();
  const NAME = 'Acme Academy';
  const logo = solidPng(64, [15, 118, 110]);

  /** The install's own brand for the browser tests that follow (read again within a second). */
  const forgetBrand = () =>
    appDatabase(e2e.dataDir)
      .delete(settings)
      .where(or(eq(settings.key, 'brand'), like(settings.key, 'brand-logo:%')));
  const brandForm = (page: Page) => page.getByTestId('brand-settings');
  const headerBrand = (page: Page) => page.locator('header.site-header a.brand');
  /** The header's logo has loaded from the site (a broken image has no natural width). */
  const headerLogo = async (page: Page) => {
    const img = headerBrand(page).locator('img');
    await page.waitForFunction(
      (el) => (el as HTMLImageElement | null)?.complete ?? false,
      await img.elementHandle(),
    );
    return img.evaluate((el: HTMLImageElement) => ({
      src: el.getAttribute('src'),
      width: el.naturalWidth,
    }));
  };

  it('the main admin names the site, sets a colour and a PNG logo on a phone; pages, email and receipt follow', async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    const mailTo = async (email: string) =>
      await appDatabase(e2e.dataDir).select().from(outboxEmails).where(eq(outboxEmails.to, email));
    try {
      await signInInBrowser(page, inject('adminEmail'), inject('adminPassword'));
      await page.goto('/admin/settings');
      await hydrated(page);

      // A colour white text cannot be read on is refused, and nothing changes.
      await brandForm(page).getByLabel('Site name').fill(NAME);
      await brandForm(page)
        .getByLabel(/Accent colour/)
        .fill('#ffcc00');
      await brandForm(page).getByRole('button', { name: 'Save Brand' }).click();
      await page
        .locator('.Toastify')
        .getByText(/The accent colour #ffcc00 has a contrast of 1\.5:1 with white/)
        .waitFor();

      await brandForm(page)
        .getByLabel(/Accent colour/)
        .fill('#0f766e');
      await brandForm(page)
        .getByLabel(/^Logo/)
        .setInputFiles({ name: 'acme.png', mimeType: 'image/png', buffer: logo });
      await brandForm(page).getByRole('button', { name: 'Save Brand' }).click();
      await page.locator('.Toastify').getByText('Brand saved').waitFor();
      expect(await pageProblems(page)).toEqual([]);

      for (const path of ['/pricing', '/']) {
        await page.goto(path);
        await expect(headerBrand(page).innerText()).resolves.toBe(NAME);
        const shown = await headerLogo(page);
        expect(shown.src).toMatch(/^\/brand\/logo\/[0-9a-f]+\.png$/);
        expect(shown.width).toBe(64);
        await expect(page.title()).resolves.toContain(NAME);
        // The accent is the buttons' colour: rgb(15, 118, 110) is #0f766e.
        await expect(
          page
            .locator('.button.primary')
            .first()
            .evaluate((el) => getComputedStyle(el).backgroundColor),
        ).resolves.toBe('rgb(15, 118, 110)');
        expect(await pageProblems(page)).toEqual([]);
      }

      // A new member, on a phone too: the welcome email, then a receipt, under the brand.
      const memberPage = await e2e.newPage({ viewport: { width: 390, height: 844 } });
      const member = await signUp(memberPage, e2e.dataDir, { name: 'Ada Lovelace' });
      await expect
        .poll(async () => (await mailTo(member.email)).map((mail) => mail.subject))
        .toContain(`Welcome to ${NAME}`);
      const welcome = (await mailTo(member.email)).find((m) => m.subject.startsWith('Welcome'))!;
      expect(welcome.from).toContain(`"${NAME}"`);
      expect(welcome.html).toMatch(/\/brand\/logo\/[0-9a-f]+\.png/);

      await memberPage.goto('/pricing');
      await expect(headerBrand(memberPage).innerText()).resolves.toBe(NAME);
      await memberPage
        .getByTestId('plan-monthly')
        .getByRole('link', { name: /Get Started/ })
        .click();
      await memberPage.waitForURL('**/payment?plan=monthly');
      await memberPage.getByLabel('First Name').fill('Ada');
      await memberPage.getByLabel('Last Name').fill('Lovelace');
      await memberPage.getByLabel('Address').fill('1 Analytical Street');
      await memberPage.getByLabel('Postal Code').fill('10115');
      await memberPage.getByLabel('Country').selectOption('DE');
      await memberPage.getByRole('button', { name: 'PayPal' }).click();
      await memberPage.waitForURL('**/demo/paypal/approve?ba_token=*');
      await memberPage.getByRole('button', { name: 'Approve' }).click();
      await memberPage.getByRole('heading', { name: 'Thank You' }).waitFor();
      const receiptOf = async () =>
        (await mailTo(member.email)).find((mail) => mail.subject.includes('receipt'));
      await expect.poll(receiptOf).toBeDefined();
      const receiptMail = await receiptOf();
      expect(receiptMail!.subject).toMatch(new RegExp(`^Your ${NAME} receipt #\\d{6}$`));
      const parser = new PDFParse({
        data: new Uint8Array(Buffer.from(receiptMail!.attachments[0]!.base64, 'base64')),
      });
      try {
        expect((await parser.getText()).text).toContain(NAME);
      } finally {
        await parser.destroy();
      }
    } finally {
      await forgetBrand();
    }
  });

  it('saves the brand without JavaScript, the message on the page, and rolls it back', async () => {
    const page = await e2e.newPage({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    try {
      await signInInBrowser(page, inject('adminEmail'), inject('adminPassword'));
      await page.goto('/admin/settings');
      await brandForm(page).getByLabel('Site name').fill('Nojs Academy');
      await brandForm(page)
        .getByLabel(/Support email/)
        .fill('help@nojs.test');
      await brandForm(page)
        .getByLabel(/^Logo/)
        .setInputFiles({ name: 'nojs.png', mimeType: 'image/png', buffer: logo });
      await brandForm(page).getByRole('button', { name: 'Save Brand' }).click();
      await page.getByRole('status').getByText('Brand saved').waitFor();
      await expect(headerBrand(page).innerText()).resolves.toBe('Nojs Academy');
      await expect(
        page.locator('footer.site-footer').getByRole('link', { name: 'help@nojs.test' }).count(),
      ).resolves.toBe(1);
      expect((await headerLogo(page)).width).toBe(64);

      const change = page.getByTestId('brand-changes').getByRole('row').nth(1);
      await expect(change.innerText()).resolves.toContain('Name: default → Nojs Academy');
      await change.getByRole('button', { name: /^Roll back/ }).click();
      await page.getByRole('status').getByText('Brand rolled back').waitFor();
      await page.goto('/');
      await expect(headerBrand(page).innerText()).resolves.toBe('CourseGen');
      await expect(headerLogo(page)).resolves.toMatchObject({ src: '/logo.svg' });
    } finally {
      await forgetBrand();
    }
  });
});
