import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { outboxEmails, settings } from '../../db/schema';
import { signInInBrowser } from '../support/accounts';
import { hydrated, useBrowser } from '../support/browser';
import { insertCourse } from '../support/courses';
import { appDatabase, signUp } from '../support/members';
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
      await monthly.getByLabel('PayPal price per month').fill('-3');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page
        .locator('.Toastify')
        .getByText('Monthly Plan price must be an amount between 0.01 and 10,000')
        .waitFor();

      await monthly.getByLabel('PayPal price per month').fill('12');
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

  const toast = (page: Page, text: string) =>
    page.locator('.Toastify').getByText(text).first().waitFor();

  async function fillPayment(page: Page) {
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Address').fill('1 Analytical Street');
    await page.getByLabel('Postal Code').fill('10115');
    await page.getByLabel('Country').selectOption('DE');
  }

  /** A PayPal checkout through the demo approval page; what the approval page said the price is. */
  async function subscribeWithPayPal(page: Page) {
    await page.goto('/payment?plan=monthly');
    await fillPayment(page);
    await page.getByRole('button', { name: 'PayPal' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    const price = await page.getByTestId('demo-price').innerText();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    return price;
  }

  const receiptMail = async (email: string) => {
    // The approval's webhook may have the worker send it, a moment after the page shows.
    await expect
      .poll(
        async () =>
          (
            await appDatabase(e2e.dataDir)
              .select()
              .from(outboxEmails)
              .where(eq(outboxEmails.to, email))
          ).some((mail) => mail.subject.includes('receipt')),
        { timeout: 30_000 },
      )
      .toBe(true);
    const mails = await appDatabase(e2e.dataDir)
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, email));
    return mails.find((mail) => mail.subject.includes('receipt'))!;
  };

  /** The main admin saves the monthly prices on the settings page. */
  async function setMonthly(
    page: Page,
    prices: { paypal?: string; razorpay?: string; razorpayCurrency?: string; yearlyTrial?: string },
  ) {
    await page.goto('/admin/settings');
    await hydrated(page);
    const monthly = page.getByRole('group', { name: 'Monthly Plan' });
    if (prices.paypal) await monthly.getByLabel('PayPal price per month').fill(prices.paypal);
    if (prices.razorpay) await monthly.getByLabel('Razorpay price per month').fill(prices.razorpay);
    if (prices.razorpayCurrency)
      await monthly.getByLabel('Razorpay currency').selectOption(prices.razorpayCurrency);
    if (prices.yearlyTrial)
      await page
        .getByRole('group', { name: 'Yearly Plan' })
        .getByLabel(/^Free trial in days/)
        .fill(prices.yearlyTrial);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Plans saved');
  }

  it('a new price reaches PayPal: new members pay 12, a member who subscribed before still pays 8', async () => {
    const admin = await e2e.newPage();
    const before = await e2e.newPage();
    const after = await e2e.newPage();
    try {
      const earlier = await signUp(before, e2e.dataDir, { name: 'Ada Lovelace' });
      await expect(subscribeWithPayPal(before)).resolves.toBe('$8.00 USD every month');

      await signInInBrowser(admin, inject('adminEmail'), inject('adminPassword'));
      await setMonthly(admin, { paypal: '12' });
      await admin.goto('/pricing');
      await expect(
        admin.getByTestId('plan-monthly').locator('.plan-cost').innerText(),
      ).resolves.toBe('$12');

      const later = await signUp(after, e2e.dataDir, { name: 'Ada Lovelace' });
      await after.goto('/pricing');
      await expect(
        after.getByTestId('plan-monthly').locator('.plan-cost').innerText(),
      ).resolves.toBe('$12');
      await after.goto('/payment?plan=monthly');
      await expect(after.getByTestId('payment-plan').innerText()).resolves.toBe(
        'Monthly Plan: $12 / month',
      );
      await expect(subscribeWithPayPal(after)).resolves.toBe('$12.00 USD every month');
      await expect(after.getByTestId('summary-amount').innerText()).resolves.toBe('$12.00 USD');
      await after.goto('/subscription');
      await expect(after.getByTestId('summary-amount').innerText()).resolves.toBe('$12.00 USD');
      await expect(after.getByTestId('receipts').innerText()).resolves.toContain('$12.00 USD');
      await expect(receiptMail(later.email)).resolves.toMatchObject({
        html: expect.stringContaining('$12.00 USD') as unknown,
      });

      // The member who subscribed at 8 keeps paying 8.
      await before.goto('/subscription');
      await expect(before.getByTestId('summary-amount').innerText()).resolves.toBe('$8.00 USD');
      await expect(before.getByTestId('receipts').innerText()).resolves.toContain('$8.00 USD');
      await expect(receiptMail(earlier.email)).resolves.toMatchObject({
        html: expect.stringContaining('$8.00 USD') as unknown,
      });
    } finally {
      await appDatabase(e2e.dataDir).delete(settings).where(eq(settings.key, 'plans'));
    }
  });

  it('a Razorpay price in INR shows on /pricing for the Razorpay checkout, on its payment link and on the receipt', async () => {
    const admin = await e2e.newPage();
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await signInInBrowser(admin, inject('adminEmail'), inject('adminPassword'));
      await setMonthly(admin, { razorpay: '699', razorpayCurrency: 'INR', yearlyTrial: '14' });

      const member = await signUp(page, e2e.dataDir, { name: 'Grace Hopper' });
      await page.goto('/pricing');
      const card = page.getByTestId('plan-monthly');
      await expect(card.getByTestId('price-paypal').innerText()).resolves.toBe(
        'PayPal: $8 / month',
      );
      await expect(card.getByTestId('price-razorpay').innerText()).resolves.toBe(
        'Razorpay: ₹699 / month',
      );
      // A trial, offered by the providers themselves, on the card and the checkout.
      await expect(
        page.getByTestId('plan-yearly').getByTestId('plan-trial').innerText(),
      ).resolves.toBe('14-day free trial');
      await expect(card.getByTestId('plan-trial').count()).resolves.toBe(0);
      expect(await pageProblems(page)).toEqual([]);
      await page.goto('/payment?plan=yearly');
      await expect(page.getByTestId('payment-trial').innerText()).resolves.toContain(
        '14-day free trial: nothing is charged until it ends',
      );

      await page.goto('/payment?plan=monthly');
      await expect(page.getByTestId('payment-price-razorpay').innerText()).resolves.toBe(
        'Razorpay: ₹699 / month',
      );
      await fillPayment(page);
      await page.getByRole('button', { name: 'Razorpay' }).click();
      await page.waitForURL('**/pending?subscription_id=sub_*');
      const [payTab] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('link', { name: 'Payment Link' }).click(),
      ]);
      await payTab.waitForLoadState();
      await expect(payTab.getByTestId('demo-price').innerText()).resolves.toBe(
        '₹699 INR every month',
      );
      await payTab.getByRole('button', { name: 'Pay' }).click();
      await payTab.getByTestId('demo-paid').waitFor();
      await payTab.close();
      await page.getByRole('button', { name: 'Verify Payment' }).click();
      await page.getByRole('heading', { name: 'Thank You' }).waitFor();

      await page.goto('/subscription');
      await expect(page.getByTestId('summary-amount').innerText()).resolves.toBe('₹699.00 INR');
      await expect(page.getByTestId('receipts').innerText()).resolves.toContain('₹699.00 INR');
      await expect(receiptMail(member.email)).resolves.toMatchObject({
        html: expect.stringContaining('₹699.00 INR') as unknown,
      });
      expect(await pageProblems(page)).toEqual([]);
    } finally {
      await appDatabase(e2e.dataDir).delete(settings).where(eq(settings.key, 'plans'));
    }
  });
  it('the main admin gives the free plan one lesson per topic and no PDF; a free member is held to both', async () => {
    const admin = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    const member = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await signInInBrowser(admin, inject('adminEmail'), inject('adminPassword'));
      await admin.goto('/admin/settings');
      await hydrated(admin);
      const free = admin.getByRole('group', { name: 'Free Plan' });
      await free.getByLabel(/^Lessons per topic/).fill('1');
      await free.getByRole('group', { name: 'Course downloads' }).getByLabel('PDF').uncheck();
      await admin.getByRole('button', { name: 'Save Settings' }).click();
      await toast(admin, 'Plans saved');
      await admin.goto('/admin/settings');
      const change = admin.getByTestId('plan-changes').getByRole('row').nth(1);
      await expect(change.innerText()).resolves.toContain('Free Plan lessons per topic: 4 → 1');
      await expect(change.innerText()).resolves.toContain(
        'Free Plan downloads: Markdown, PDF → Markdown',
      );
      expect(await pageProblems(admin)).toEqual([]);

      const learner = await signUp(member, e2e.dataDir, { name: 'Grace Hopper' });
      const courseId = await insertCourse(e2e.dataDir, learner.id, {
        mainTopic: 'Compilers',
        lessons: 2,
        allDone: true,
      });
      await member.goto(`/course/${courseId}`);
      await member.getByRole('link', { name: 'Download Markdown of Compilers' }).waitFor();
      await expect(member.getByRole('link', { name: /^Download PDF/ }).count()).resolves.toBe(0);
      // The server says the same to a link typed by hand.
      const typed = await member.request.get(`/course/${courseId}/export.pdf`);
      expect(typed.status()).toBe(403);
      await expect(typed.text()).resolves.toBe('For paid members only');
      expect(await pageProblems(member)).toEqual([]);
    } finally {
      await appDatabase(e2e.dataDir).delete(settings).where(eq(settings.key, 'plans'));
    }
  });
});
