import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';

/**
 * Account helpers for browser tests: sign up, sign in and out the way a person
 * does, through the real pages. Other features' tests can start from here.
 */

const TEST_PASSWORD = 'test-password-123';

/** A fresh, unique address for one test. */
export function uniqueEmail(label = 'member'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

/** Waits for a toast (bottom centre) with exactly this text. */
export async function expectToast(page: Page, message: string, timeout = 20_000) {
  await page
    .locator('.Toastify')
    .getByText(message, { exact: true })
    .first()
    .waitFor({ state: 'visible', timeout });
}

export interface Member {
  name: string;
  email: string;
  password: string;
}

/** Signs up a new member through /signup and waits for /home. */
export async function signUpInBrowser(page: Page, member: Partial<Member> = {}): Promise<Member> {
  const full: Member = {
    name: member.name ?? 'Test Member',
    email: member.email ?? uniqueEmail(),
    password: member.password ?? TEST_PASSWORD,
  };
  await page.goto('/signup');
  await page.getByLabel('Name', { exact: true }).fill(full.name);
  await page.getByLabel('Email', { exact: true }).fill(full.email);
  await page.getByLabel('Password', { exact: true }).fill(full.password);
  await page.getByRole('button', { name: 'SignUp', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/home', { timeout: 30_000 });
  // The URL changes as the navigation commits; the signed-in header shows a moment later.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Profile', exact: true })
    .waitFor();
  return full;
}

/** Signs in through /signin (optionally already there, e.g. after a redirect) and waits to leave it. */
export async function signInInBrowser(
  page: Page,
  email: string,
  password: string,
  { navigate = true }: { navigate?: boolean } = {},
) {
  if (navigate) await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'SignIn', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 30_000 });
}

/** Logs out with the header's Logout button and waits for /signin. */
export async function logOutInBrowser(page: Page) {
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/signin', { timeout: 30_000 });
}
