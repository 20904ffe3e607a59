import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { useBrowser } from '../support/browser';
import { appDatabase } from '../support/members';
import {
  expectToast,
  logOutInBrowser,
  signInInBrowser,
  signUpInBrowser,
  uniqueEmail,
} from '../support/accounts';

const REQUIRED = 'Please fill in all required fields';
const LENGTH = 'Password should be at least 9 characters';
const MISMATCH = 'The password and confirm password do not match';
const CURRENT_NEEDED = 'Please enter your current password to change your email or password';

describe('accounts in a browser', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;

  const label = (page: Page, text: string) => page.getByLabel(text, { exact: true });
  const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  /**
   * The link in the newest email to `email` with this subject, read from the demo outbox's table
   * as the member's mailbox would have it (an admin's outbox view masks other people's links).
   */
  async function linkFromOutbox(email: string, subject: string): Promise<string> {
    for (let tries = 0; tries < 40; tries += 1) {
      // The app's own SQLite file, opened beside it (tests/support/members.ts).
      const mails = (
        await appDatabase(dataDir)
          .select()
          .from(outboxEmails)
          .where(eq(outboxEmails.to, email.toLowerCase()))
      ).filter((mail) => mail.subject === subject);
      const href = /https?:\/\/[^"\s]+\/(?:reset-password|verify-email)\/[A-Za-z0-9_-]+/.exec(
        mails.at(-1)?.html ?? '',
      )?.[0];
      if (href) return new URL(href).pathname;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no email "${subject}" for ${email} in the outbox`);
  }

  it('walks a new member through sign-up, logout, sign-in, profile, forgot and reset', async () => {
    const page = await e2e.newPage();
    const member = await signUpInBrowser(page, { name: 'Walker', email: uniqueEmail('walker') });

    // Signed-in header: Home, Profile, Logout, Pricing, Generate Course; no Admin for members.
    for (const link of ['Home', 'Profile', 'Pricing', 'Generate Course']) {
      expect(await nav(page).getByRole('link', { name: link, exact: true }).count(), link).toBe(1);
    }
    expect(await nav(page).getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(await page.getByText('Nothing Found').isVisible()).toBe(true);

    await logOutInBrowser(page);
    await expectToast(page, 'Logout Successful');

    // A wrong password is refused with the server's message.
    await label(page, 'Email').fill(member.email);
    await label(page, 'Password').fill('not-my-password');
    await button(page, 'SignIn').click();
    await expectToast(page, 'Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/signin');

    await signInInBrowser(page, member.email, member.password, { navigate: false });
    expect(new URL(page.url()).pathname).toBe('/home');

    // Profile: the stored values are shown; an empty name or short password is refused.
    await nav(page).getByRole('link', { name: 'Profile', exact: true }).click();
    await page.waitForURL('**/profile');
    expect(await label(page, 'Name').inputValue()).toBe('Walker');
    expect(await label(page, 'Email').inputValue()).toBe(member.email);
    expect(
      await page.getByRole('link', { name: 'Manage Subscriptions' }).getAttribute('href'),
    ).toBe('/subscription');
    await label(page, 'Name').fill('');
    await button(page, 'Submit').click();
    await expectToast(page, REQUIRED);
    await label(page, 'Name').fill('Walker Renamed');
    await label(page, 'New Password').fill('short');
    await button(page, 'Submit').click();
    await expectToast(page, LENGTH);
    await label(page, 'New Password').fill('profile-password-2');
    await button(page, 'Submit').click();
    await expectToast(page, CURRENT_NEEDED);
    await label(page, 'Current Password').fill('not-my-password');
    await button(page, 'Submit').click();
    await expectToast(page, 'Your current password is incorrect');
    await label(page, 'Current Password').fill(member.password);
    await button(page, 'Submit').click();
    await expectToast(page, 'Profile Updated');
    await page.reload();
    expect(await label(page, 'Name').inputValue()).toBe('Walker Renamed');
    expect(await label(page, 'New Password').inputValue()).toBe('');
    expect(await label(page, 'Current Password').inputValue()).toBe('');

    // A new email waits for the link sent to it; following it moves the account.
    const newEmail = uniqueEmail('walker-moved');
    await label(page, 'Email').fill(newEmail);
    await label(page, 'Current Password').fill('profile-password-2');
    await button(page, 'Submit').click();
    await expectToast(
      page,
      `Profile Updated. To change your email, follow the link we sent to ${newEmail}`,
    );
    expect(await label(page, 'Email').inputValue()).toBe(member.email);
    expect(await page.getByTestId('pending-email').innerText()).toContain(newEmail);
    await page.goto(await linkFromOutbox(newEmail, 'Confirm your new CourseGen email address'));
    expect(await page.getByTestId('new-email').innerText()).toBe(newEmail);
    await button(page, 'Confirm Email').click();
    await page.waitForURL((url) => url.pathname === '/profile');
    await expectToast(page, 'Your email address has been changed');
    expect(await label(page, 'Email').inputValue()).toBe(newEmail);
    member.email = newEmail;

    // Forgot password, signed out: the answer, then a 60-second countdown with Submit disabled.
    await logOutInBrowser(page);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL('**/forgot');
    await button(page, 'Submit').click();
    await expectToast(page, REQUIRED);
    await label(page, 'Email').fill(member.email);
    await button(page, 'Submit').click();
    await expectToast(
      page,
      'If an account exists for this email, a password reset link has been sent to it',
    );
    const countdown = page.getByTestId('resend-countdown');
    await countdown.waitFor();
    expect(await countdown.innerText()).toMatch(/\b(1:00|0:[0-5]\d)\b/);
    expect(await button(page, 'Submit').isDisabled()).toBe(true);

    // The link from the demo outbox opens the reset page.
    const resetPath = await linkFromOutbox(member.email, 'Reset your CourseGen password');
    await page.goto(resetPath);
    await button(page, 'Submit').click();
    await expectToast(page, REQUIRED);
    await label(page, 'New Password').fill('reset-password-3');
    await label(page, 'Confirm Password').fill('reset-password-4');
    await button(page, 'Submit').click();
    await expectToast(page, MISMATCH);
    await label(page, 'New Password').fill('short');
    await label(page, 'Confirm Password').fill('short');
    await button(page, 'Submit').click();
    await expectToast(page, LENGTH);
    await label(page, 'New Password').fill('reset-password-3');
    await label(page, 'Confirm Password').fill('reset-password-3');
    await button(page, 'Submit').click();
    await page.waitForURL((url) => url.pathname === '/signin');
    await expectToast(page, 'Password has been reset successfully');

    // The link works once.
    await page.goto(resetPath);
    expect(
      await page
        .getByText('This reset link is invalid or has expired', { exact: false })
        .isVisible(),
    ).toBe(true);

    await signInInBrowser(page, member.email, 'reset-password-3');
    expect(new URL(page.url()).pathname).toBe('/home');
    await page.context().close();
  });

  it('shows the sign-up and sign-in validation messages', async () => {
    const page = await e2e.newPage();
    await page.goto('/signup');
    await button(page, 'SignUp').click();
    await expectToast(page, REQUIRED);
    await label(page, 'Name').fill('Short');
    await label(page, 'Email').fill(uniqueEmail());
    await label(page, 'Password').fill('12345678');
    await button(page, 'SignUp').click();
    await expectToast(page, LENGTH);
    expect(new URL(page.url()).pathname).toBe('/signup');

    await page.getByRole('main').getByRole('link', { name: 'SignIn', exact: true }).click();
    await page.waitForURL('**/signin');
    await label(page, 'Email').fill('someone@example.com');
    await button(page, 'SignIn').click();
    await expectToast(page, REQUIRED);
    await page.context().close();
  });

  it('brings a visitor back to the page they asked for, and sends members away from the visitor pages', async () => {
    const page = await e2e.newPage();
    const member = await signUpInBrowser(page);
    await logOutInBrowser(page);

    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/signin');
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/profile');
    await signInInBrowser(page, member.email, member.password, { navigate: false });
    expect(new URL(page.url()).pathname).toBe('/profile');

    for (const path of ['/signin', '/signup', '/forgot', '/reset-password/anything']) {
      await page.goto(path);
      expect(new URL(page.url()).pathname, path).toBe('/home');
    }
    await page.context().close();
  });

  it("shows 'Internal Server Error' when the server cannot answer", async () => {
    const page = await e2e.newPage();
    await page.goto('/signin');
    await page.route(
      (url) => url.pathname.startsWith('/signin'),
      (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream down' })
          : route.continue(),
    );
    await label(page, 'Email').fill('someone@example.com');
    await label(page, 'Password').fill('some-password-1');
    await button(page, 'SignIn').click();
    await expectToast(page, 'Internal Server Error');
    await page.context().close();
  });

  it('works without JavaScript, showing the messages on the page', async () => {
    const context = await e2e.browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/signin');
    await button(page, 'SignIn').click();
    await page.getByRole('alert').getByText(REQUIRED).waitFor();

    const email = uniqueEmail('nojs');
    await page.goto('/signup');
    await label(page, 'Name').fill('No Script');
    await label(page, 'Email').fill(email);
    await label(page, 'Password').fill('no-script-pass-1');
    await button(page, 'SignUp').click();
    await page.waitForURL((url) => url.pathname === '/home');
    await button(page, 'Logout').click();
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.goto('/home');
    expect(new URL(page.url()).pathname).toBe('/signin');
    await context.close();
  });
});
