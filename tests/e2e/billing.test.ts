import { eq } from 'drizzle-orm';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { outboxEmails, subscriptions, users } from '../../db/schema';
import { useBrowser } from '../support/browser';
import { TEST_REDIS_URL } from '../support/redis';
import { appDatabase, signUp } from '../support/members';

/**
 * Paying for a plan through PayPal as a new member would, in a real browser
 * against the production build in demo mode: PayPal's API is the mock, and
 * its approval page is the demo stand-in.
 */
describe('paid plans through PayPal and Razorpay in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  const toast = (page: Page, text: string) =>
    page.locator('.Toastify').getByText(text).first().waitFor();
  // The app's own SQLite file, opened beside it (tests/support/members.ts).
  const planOf = async (email: string) =>
    (
      await appDatabase(dataDir)
        .select({ plan: users.plan })
        .from(users)
        .where(eq(users.email, email))
    )[0]?.plan;
  const mailTo = async (email: string) =>
    await appDatabase(dataDir).select().from(outboxEmails).where(eq(outboxEmails.to, email));

  async function fillPayment(page: Page, postalCode = '10115') {
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Address').fill('1 Analytical Street');
    await page.getByLabel('Postal Code').fill(postalCode);
    await page.getByLabel('Country').selectOption('DE');
  }

  /** Runs the worker's scheduled end-of-paid-period job now, as the hourly schedule would. */
  async function runPaidPeriodJob() {
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const prefix = inject('redisPrefix');
    const queue = new Queue('maintenance', { connection, prefix });
    const events = new QueueEvents('maintenance', { connection: connection.duplicate(), prefix });
    try {
      await events.waitUntilReady();
      const job = await queue.add('end-paid-periods', { task: 'end-paid-periods' });
      // Generous: the one maintenance slot may be busy with a scheduled task on a loaded machine.
      await job.waitUntilFinished(events, 60_000);
    } finally {
      await events.close();
      await queue.close();
      connection.disconnect();
    }
  }

  it('subscribes, gets a receipt, modifies, cancels and drops to free when the paid period ends', async () => {
    const page = await e2e.newPage();
    const member = await signUp(page, dataDir, { name: 'Ada Lovelace' });

    await page.goto('/pricing');
    await page
      .getByTestId('plan-monthly')
      .getByRole('link', { name: /Get Started/ })
      .click();
    await page.waitForURL('**/payment?plan=monthly');
    await expect(page.getByTestId('payment-plan').innerText()).resolves.toContain('Monthly Plan');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(member.email);

    // Nothing filled in: the required-fields message; a postal code with letters is refused.
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'PayPal' }).click();
    await toast(page, 'Please fill in all required fields');
    await page.getByLabel('Email').fill(member.email);
    await fillPayment(page, 'AB12');
    await page.getByRole('button', { name: 'PayPal' }).click();
    await toast(page, 'The postal code should contain only digits');
    expect(await planOf(member.email)).toBe('free');

    await page.getByLabel('Postal Code').fill('10115');
    await page.getByRole('button', { name: 'PayPal' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    await expect(page.getByTestId('demo-plan').innerText()).resolves.toBe('Monthly Plan');
    await expect(page.getByTestId('demo-price').innerText()).resolves.toContain('$8.00');
    await expect(page.getByTestId('demo-buyer').innerText()).resolves.toContain('Ada Lovelace');
    expect(await planOf(member.email)).toBe('free');
    await page.getByRole('button', { name: 'Approve' }).click();

    await page.waitForURL(/\/success\?.*subscription_id=I-/);
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    await expect(page.getByTestId('success-text').innerText()).resolves.toContain(
      'Ada Lovelace, you have subscribed to the Monthly Plan',
    );
    await expect(page.getByTestId('summary-method').innerText()).resolves.toBe('PayPal');
    await expect(page.getByTestId('summary-amount').innerText()).resolves.toBe('$8.00 USD');
    const subscriptionId = await page.getByTestId('summary-subscription-id').innerText();
    expect(subscriptionId).toMatch(/^I-/);
    expect(await planOf(member.email)).toBe('monthly');

    // The receipt: emailed once with its PDF, however often the page is reloaded. The
    // approval's webhook may have the worker send it, a moment after the page shows.
    const receiptMails = async () =>
      (await mailTo(member.email)).filter((mail) => mail.subject.includes('receipt'));
    await expect.poll(async () => (await receiptMails()).length).toBe(1);
    await page.reload();
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    const receipts = await receiptMails();
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.attachments[0]).toMatchObject({ contentType: 'application/pdf' });
    const attached = Buffer.from(receipts[0]!.attachments[0]!.base64, 'base64');
    expect(attached.subarray(0, 5).toString()).toBe('%PDF-');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download receipt' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^receipt-\d{6}\.pdf$/);
    const downloaded = await download.createReadStream().then(async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });
    expect(downloaded.subarray(0, 5).toString()).toBe('%PDF-');

    // The paid plan is open: 10 topics and video courses on /create.
    await page.goto('/create');
    await page.getByRole('radio', { name: '10' }).check();
    await page.getByRole('radio', { name: 'Video & Theory Course' }).check();
    await expect(page.getByText('For paid members only').count()).resolves.toBe(0);

    await page.goto('/subscription');
    await page.getByRole('heading', { name: 'Subscription' }).waitFor();
    await expect(page.getByTestId('summary-method').innerText()).resolves.toBe('PayPal');
    await expect(page.getByTestId('summary-plan').innerText()).resolves.toBe('Monthly Plan');
    await expect(page.getByTestId('summary-subscription-id').innerText()).resolves.toBe(
      subscriptionId,
    );
    await expect(page.getByTestId('summary-start-time').innerText()).resolves.not.toBe('—');
    await expect(page.getByTestId('summary-next-billing-time').innerText()).resolves.not.toBe('—');
    await expect(page.getByTestId('summary-amount').innerText()).resolves.toBe('$8.00 USD');
    await expect(page.getByTestId('receipts').locator('tbody tr').count()).resolves.toBe(1);

    // Modify: to the yearly plan, approved at the provider.
    await page.getByRole('button', { name: 'Modify Subscription' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    await expect(page.getByTestId('demo-plan').innerText()).resolves.toBe('Yearly Plan');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/successful\?/);
    await expect(page.getByTestId('successful-text').innerText()).resolves.toContain(
      'charged $88 from the next billing date',
    );
    expect(await planOf(member.email)).toBe('yearly');

    // Cancel: the member keeps the paid plan until the period ends.
    await page.goto('/subscription');
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await toast(page, 'Subscription Cancelled');
    await page.waitForURL('**/pricing');
    await page.getByTestId('paid-until').waitFor();
    expect(await planOf(member.email)).toBe('yearly');
    await page.goto('/subscription');
    await expect(page.getByTestId('summary-paid-until').innerText()).resolves.not.toBe('—');

    // The paid period ends: the scheduled job drops the member to free.
    const db = appDatabase(dataDir);
    await db
      .update(subscriptions)
      .set({ paidUntil: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.providerSubscriptionId, subscriptionId));
    await runPaidPeriodJob();
    expect(await planOf(member.email)).toBe('free');
    await page.goto('/subscription');
    await page.waitForURL('**/pricing');
    await page.context().close();
  });

  it('goes to /failed when the buyer cancels on the approval page', async () => {
    const page = await e2e.newPage();
    const member = await signUp(page, dataDir);
    await page.goto('/payment?plan=yearly');
    await fillPayment(page);
    await page.getByRole('button', { name: 'PayPal' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/failed?*');
    await page.getByRole('heading', { name: 'Payment Failed' }).waitFor();
    await page.getByText('Your payment failed. You can start the payment process again').waitFor();
    expect(await planOf(member.email)).toBe('free');
    await page.getByRole('link', { name: 'Start Again' }).click();
    await page.waitForURL('**/pricing');
    await page.context().close();
  });

  it('pays through Razorpay: pending, the payment link, verify, success; modify is refused; cancel keeps the plan', async () => {
    const page = await e2e.newPage();
    const member = await signUp(page, dataDir, { name: 'Grace Hopper' });
    await page.goto('/payment?plan=monthly');
    await fillPayment(page);
    await page.getByRole('button', { name: 'Razorpay' }).click();
    await page.waitForURL('**/pending?subscription_id=sub_*');
    await page.getByRole('heading', { name: 'Payment Pending' }).waitFor();

    await page.getByRole('button', { name: 'Verify Payment' }).click();
    await toast(page, 'Payment is still pending');
    expect(await planOf(member.email)).toBe('free');

    const [payTab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'Payment Link' }).click(),
    ]);
    await payTab.waitForLoadState();
    await expect(payTab.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'Monthly Plan',
    );
    await payTab.getByRole('button', { name: 'Pay' }).click();
    await payTab.getByTestId('demo-paid').waitFor();
    await payTab.close();

    await page.getByRole('button', { name: 'Verify Payment' }).click();
    await page.waitForURL(/\/success\?method=razorpay&subscription_id=sub_/);
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    expect(await planOf(member.email)).toBe('monthly');

    await page.goto('/subscription');
    await expect(page.getByTestId('summary-method').innerText()).resolves.toBe('Razorpay');
    await expect(page.getByTestId('summary-start-time').innerText()).resolves.not.toBe('—');
    await expect(page.getByTestId('summary-next-billing-time').innerText()).resolves.not.toBe('—');
    await page.getByRole('button', { name: 'Modify Subscription' }).click();
    await toast(page, 'You cannot modify the plan because you have subscribed via Razorpay');

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await toast(page, 'Subscription Cancelled');
    await page.waitForURL('**/pricing');
    await page.getByTestId('paid-until').waitFor();
    expect(await planOf(member.email)).toBe('monthly');
    await page.context().close();
  });
});
