import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { signInInBrowser } from '../support/accounts';
import { decodePngSize, insertCourse, readCompletion } from '../support/courses';
import { createMember, signUp } from '../support/members';

const enGB = (date: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);

describe('completing a course and earning its certificate', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;

  /** A new member, signed up through the sign-up page. */
  async function memberPage(name: string, options: { javaScriptEnabled?: boolean } = {}) {
    const context = await e2e.browser.newContext({ baseURL, ...options });
    const page = await context.newPage();
    const member = await signUp(page, dataDir, { name });
    return { member, page };
  }

  async function imageWidth(page: Page) {
    const image = page.getByTestId('certificate-image');
    await image.waitFor();
    return image.evaluate(async (img: HTMLImageElement) => {
      if (!img.complete) await new Promise((resolve) => img.addEventListener('load', resolve));
      return img.naturalWidth;
    });
  }

  it('finishes the course, shows, downloads, emails and verifies the certificate', async () => {
    const { member, page } = await memberPage('Ada Lovelace');
    const courseId = await insertCourse(dataDir, member.id, {
      mainTopic: 'Introduction to Astronomy',
      lessons: 4,
      allDone: false,
    });

    // Not finished yet: the certificate sends the member back to the course.
    await page.goto(`/certificate/${courseId}`);
    expect(new URL(page.url()).pathname).toBe(`/course/${courseId}`);
    expect(await readCompletion(dataDir, courseId)).toBeUndefined();

    // The member studies every lesson in the course view; at 100% the progress
    // circle becomes the Certificate link, and opening it finishes the course.
    await page.goto(`/course/${courseId}`);
    const sidebar = page.getByRole('navigation', { name: 'Course topics' });
    for (const title of ['Lesson 2', 'Lesson 3', 'Lesson 4']) {
      await sidebar.getByRole('link', { name: title }).click();
      await page.getByRole('heading', { level: 2, name: title }).waitFor();
    }
    await page.getByRole('link', { name: 'Certificate', exact: true }).click();
    const congratulations = page.getByTestId('congratulations');
    await congratulations.waitFor({ timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toContain(
      'Congratulations',
    );
    const completion = (await readCompletion(dataDir, courseId))!;
    expect(completion).toMatchObject({
      memberName: 'Ada Lovelace',
      courseTitle: 'Introduction to Astronomy',
    });
    const date = enGB(completion.completedAt);
    const text = await congratulations.innerText();
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Introduction to Astronomy');
    expect(text).toContain(date);
    await expect(imageWidth(page)).resolves.toBe(2000);
    const certificateId = (await page.getByTestId('certificate-id').innerText()).trim();
    expect(certificateId).toBe(completion.certificateId);

    // Download saves certificate.png, a valid PNG at print size.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('certificate.png');
    const saved = fs.readFileSync(await download.path());
    expect(decodePngSize(saved)).toEqual({ width: 2000, height: 1414 });

    // A reload shows the same certificate with its stored date; so does the dark theme.
    await page.reload();
    await expect(page.getByTestId('certificate-id').innerText()).resolves.toBe(certificateId);
    await page.getByTestId('theme-toggle').click();
    await page.waitForSelector('html[data-theme="dark"]');
    await expect(page.getByTestId('congratulations').innerText()).resolves.toContain(date);
    await expect(imageWidth(page)).resolves.toBe(2000);
    const src = (await page.getByTestId('certificate-image').getAttribute('src')) ?? '';
    const darkBytes = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return Array.from(new Uint8Array(await response.arrayBuffer()));
    }, src);
    expect(Buffer.from(darkBytes).equals(saved)).toBe(true);

    // The finished course's card on /home has a Certificate button.
    await page.goto('/home');
    const card = page.getByTestId('course-card').filter({ hasText: 'INTRODUCTION TO ASTRONOMY' });
    await card.getByRole('link', { name: 'Certificate', exact: true }).click();
    await page.getByTestId('certificate-id').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/certificate/${courseId}`);
    await page.context().close();

    // The admin finds the email with the same PNG attached in the demo outbox.
    const admin = await e2e.newPage();
    await admin.goto('/admin/outbox');
    await signInInBrowser(admin, inject('adminEmail'), inject('adminPassword'), {
      navigate: false,
    });
    await admin.waitForURL((url) => url.pathname === '/admin/outbox');
    const row = admin.getByRole('row').filter({ hasText: member.email });
    await row.getByRole('link', { name: 'Your certificate for Introduction to Astronomy' }).click();
    await admin.getByTestId('email-subject').waitFor();
    await expect(admin.getByTestId('email-to').innerText()).resolves.toBe(member.email);
    await expect(admin.getByTestId('email-body').getAttribute('srcdoc')).resolves.toContain(
      certificateId,
    );
    const attachment = admin.getByRole('list', { name: 'Attachments' }).getByRole('link', {
      name: 'certificate.png',
    });
    const href = (await attachment.getAttribute('href'))!;
    expect(href.startsWith('data:image/png;base64,')).toBe(true);
    const attached = Buffer.from(href.slice('data:image/png;base64,'.length), 'base64');
    expect(attached.equals(saved)).toBe(true);
    await admin.context().close();

    // Anyone can verify it from the id printed on the certificate: name, course, date only.
    const visitor = await e2e.newPage();
    const response = await visitor.goto(`/verify/${certificateId}`);
    expect(response?.status()).toBe(200);
    await expect(
      visitor.getByRole('heading', { name: 'Certificate verified' }).isVisible(),
    ).resolves.toBe(true);
    await expect(visitor.getByTestId('verified-name').innerText()).resolves.toBe('Ada Lovelace');
    await expect(visitor.getByTestId('verified-course').innerText()).resolves.toBe(
      'Introduction to Astronomy',
    );
    await expect(visitor.getByTestId('verified-date').innerText()).resolves.toBe(date);
    await expect(visitor.locator('main').innerText()).resolves.not.toContain(member.email);

    const unknown = await visitor.goto('/verify/0000-0000-0000-0000');
    expect(unknown?.status()).toBe(404);
    await expect(
      visitor.getByRole('heading', { name: 'Page not found' }).isVisible(),
    ).resolves.toBe(true);
    await visitor.context().close();
  });

  it('works without JavaScript: Get Certificate finishes the course', async () => {
    const { member, page } = await memberPage('Grace Hopper', { javaScriptEnabled: false });
    const courseId = await insertCourse(dataDir, member.id, {
      mainTopic: 'COBOL',
      lessons: 2,
      allDone: true,
    });
    await page.goto(`/certificate/${courseId}`);
    expect(await readCompletion(dataDir, courseId)).toBeUndefined();
    await page.getByRole('button', { name: 'Get Certificate' }).click();
    await page.getByTestId('congratulations').waitFor();
    const completion = (await readCompletion(dataDir, courseId))!;
    await expect(page.getByTestId('certificate-id').innerText()).resolves.toBe(
      completion.certificateId,
    );
    await expect(imageWidth(page)).resolves.toBe(2000);
    await page.context().close();
  });

  it('retries a failed finish call quietly until it works', async () => {
    const { member, page } = await memberPage('Katherine Johnson');
    const courseId = await insertCourse(dataDir, member.id, {
      mainTopic: 'Orbital Mechanics',
      lessons: 3,
      allDone: true,
    });
    let calls = 0;
    await page.route('**/api/finish', async (route) => {
      calls += 1;
      if (calls <= 2) await route.abort('connectionreset');
      else await route.continue();
    });
    await page.goto(`/certificate/${courseId}`);
    await page.getByTestId('congratulations').waitFor({ timeout: 60_000 });
    expect(calls).toBe(3);
    expect((await readCompletion(dataDir, courseId))?.courseTitle).toBe('Orbital Mechanics');
    await expect(page.locator('.Toastify__toast').count()).resolves.toBe(0);
    await page.context().close();
  });

  it("shows another member's certificate page as not found", async () => {
    const owner = await createMember(dataDir, { name: 'Owner' });
    const courseId = await insertCourse(dataDir, owner.id, {
      mainTopic: 'Secret Course',
      lessons: 1,
      allDone: true,
    });
    const { page } = await memberPage('Someone Else');
    const response = await page.goto(`/certificate/${courseId}`);
    expect(response?.status()).toBe(404);
    expect(await readCompletion(dataDir, courseId)).toBeUndefined();
    await page.context().close();
  });
});
