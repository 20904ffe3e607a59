import fs from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoProviderRecords, users } from '../../db/schema';
import { expectToast, signUpInBrowser } from '../support/accounts';
import { hydrated, useBrowser } from '../support/browser';
import { appDatabase, signUp } from '../support/members';
import { pageProblems } from '../support/page-checks';

/**
 * What a member owns (issue 38), done as a new member does it on a phone: deleting one of two
 * courses from its /home card, after the confirmation page; taking everything along in one zip
 * (on a desktop and on a phone); deleting the account.
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
    await page.getByRole('link', { name: 'Delete course Astronomy' }).click();
    await page.getByRole('link', { name: 'Keep it' }).click();
    await page.waitForURL(new RegExp(`${astronomy}$`));
    await page.context().close();
  });

  for (const [label, viewport] of [
    ['a desktop', { width: 1280, height: 800 }],
    ['a phone', { width: 390, height: 844 }],
  ] as const)
    it(`exports everything from /profile on ${label}: the zip holds the account, the course and the notes`, async () => {
      const page = await e2e.newPage({ viewport, acceptDownloads: true });
      const member = await signUp(page, dataDir, { name: 'Grace Hopper' });
      const coursePath = await generate(page, 'Compilers');
      await hydrated(page);
      const notes = page.getByTestId('lesson-notes').getByLabel('My notes');
      await notes.fill('Remember: **parsing** comes before code generation.');
      await page.getByTestId('notes-state').getByText('Saved', { exact: true }).waitFor();

      await page.goto('/profile');
      const section = page.getByTestId('export-data');
      await section.getByRole('heading', { name: 'Export my data' }).waitFor();
      expect(await pageProblems(page)).toEqual([]);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        section.getByRole('link', { name: 'Download my data (.zip)' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const files = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
      const names = Object.keys(files);

      expect(names[0]).toBe('README.md');
      expect(strFromU8(files['README.md']!)).toContain('course.md');
      const profile = JSON.parse(strFromU8(files['account/profile.json']!)) as object;
      expect(profile).toMatchObject({ id: member.id, email: member.email, name: 'Grace Hopper' });

      const courseId = coursePath.split('/').pop()!;
      const folder = `courses/compilers-${courseId}`;
      const record = JSON.parse(strFromU8(files[`${folder}/course.json`]!)) as object;
      expect(record).toMatchObject({ _id: courseId, mainTopic: 'Compilers', user: member.id });
      const markdown = strFromU8(files[`${folder}/course.md`]!);
      expect(markdown).toMatch(/^# Compilers\n/);
      expect(markdown).toContain('Remember: **parsing** comes before code generation.');
      const saved = JSON.parse(strFromU8(files[`${folder}/notes.json`]!)) as { note: string }[];
      expect(saved.map((note) => note.note)).toEqual([
        'Remember: **parsing** comes before code generation.',
      ]);
      await page.context().close();
    });

  it('deletes a subscribed account: PayPal shows it cancelled, the old password fails, the address signs up afresh', async () => {
    const page = await e2e.newPage(phone);
    const member = await signUp(page, dataDir, { name: 'Ada Lovelace' });
    await generate(page, 'Leaving soon');

    await page.goto('/payment?plan=monthly');
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Address').fill('1 Analytical Street');
    await page.getByLabel('Postal Code').fill('10115');
    await page.getByLabel('Country').selectOption('DE');
    await page.getByRole('button', { name: 'PayPal' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/success\?.*subscription_id=I-/);
    const subscriptionId = await page.getByTestId('summary-subscription-id').innerText();

    await page.goto('/profile');
    const section = page.getByTestId('delete-account');
    await section.getByLabel('Password', { exact: true }).fill('not-my-password');
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await expectToast(page, 'Your current password is incorrect');
    await section.getByLabel('Password', { exact: true }).fill(member.password);
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expectToast(page, 'Your account was deleted');

    // The demo PayPal's own record of the subscription: cancelled.
    const [record] = await appDatabase(dataDir)
      .select()
      .from(demoProviderRecords)
      .where(
        and(eq(demoProviderRecords.provider, 'paypal'), eq(demoProviderRecords.id, subscriptionId)),
      );
    expect((record!.data as { status: string }).status).toBe('CANCELLED');

    // Signed out; the old password opens nothing.
    await page.goto('/home');
    await page.waitForURL(/\/signin/);
    await page.getByLabel('Email', { exact: true }).fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'SignIn', exact: true }).click();
    await expectToast(page, 'Invalid email or password');

    // The same address signs up again, as a new member with nothing of the old account.
    await signUpInBrowser(page, { email: member.email, name: 'Ada Again' });
    await page.goto('/home');
    await page.getByText('Nothing Found').waitFor();
    const rows = await appDatabase(dataDir)
      .select()
      .from(users)
      .where(eq(users.email, member.email));
    expect(rows.map((row) => [row.name, row.plan])).toEqual([['Ada Again', 'free']]);
    expect(rows[0]!.id).not.toBe(member.id);
    await page.context().close();
  });
});
