import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import {
  logOutInBrowser,
  signInInBrowser,
  signUpInBrowser,
  uniqueEmail,
} from '../support/accounts';
import { startApp, type RunningApp } from '../support/app-process';
import { hydrated, launchBrowser } from '../support/browser';
import { appDatabase, closeAppDatabases, signUp } from '../support/members';
import { pageProblems, VIEWPORTS } from '../support/page-checks';
import { pageRoutes } from '../support/page-routes';

/**
 * Every page a visitor, a member and an admin can reach, with data on it, at a phone's and a
 * laptop's width in Chromium with JavaScript on: no sideways scrolling and no serious or
 * critical WCAG 2.1 A/AA violation (axe). The pages are app/routes.ts's own (ADR 0048): a page
 * route with no URL below fails the first test, so a new page cannot be left out.
 *
 * One app, one browser, one context per role; the data is made the way people make it (sign-up,
 * /create, Generate Course, studying every lesson, checkouts at the demo providers, the admin
 * making an admin), so the pages show what they show a real member.
 */
type Role = 'visitor' | 'member' | 'payer' | 'admin';

/** What the walk made, for the URLs of pages with data. */
interface Made {
  courseId: string;
  payerCourseId: string;
  quizPath: string;
  cardPath: string;
  lessonId: string;
  certificateId: string;
  sharePath: string;
  outlinePath: string;
  documentPath: string;
  successPath: string;
  successfulPath: string;
  pendingPath: string;
  razorpayPayPath: string;
  paypalApprovePath: string;
  resetPasswordPath: string;
  verifyEmailPath: string;
  outboxEmailPath: string;
}

interface Visit {
  role: Role;
  url: (made: Made) => string;
  /** The page's answer: 200, or the not-found page's 404. */
  status?: number;
  /** What a person does there before the page is checked (what it shows then is checked too). */
  use?: (page: Page) => Promise<void>;
}

const as = (
  role: Role,
  url: string | ((made: Made) => string),
  options: Pick<Visit, 'status' | 'use'> = {},
): Visit => ({ role, url: typeof url === 'string' ? () => url : url, ...options });

/** The course view with its Share panel open (it hangs over the page). */
async function openTheSharePanel(page: Page) {
  await hydrated(page);
  const panel = page.getByTestId('share-course');
  await panel.locator('summary').click();
  await panel.locator('form').waitFor();
}

/**
 * Reading and trying the API docs: an operation with parameters and one with a body opened,
 * tried out and executed, so Swagger UI's forms and answers are on the page when it is checked.
 */
async function tryTheApiDocs(page: Page) {
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  for (const id of ['operations-Courses-courses', 'operations-Accounts-signin']) {
    const operation = page.locator(`#${id}`);
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    await operation.locator('.live-responses-table').waitFor({ timeout: 30_000 });
  }
}

/** The URLs of every page route, by its pattern in app/routes.ts. */
const VISITS: Record<string, Visit[]> = {
  '/': [as('visitor', '/')],
  '/about': [as('visitor', '/about')],
  '/features': [as('visitor', '/features')],
  '/pricing': [as('visitor', '/pricing'), as('member', '/pricing')],
  '/contact': [as('visitor', '/contact')],
  '/failed': [as('payer', '/failed')],
  '/*': [
    as('visitor', '/no-such-page', { status: 404 }),
    as('member', '/no-such-page', { status: 404 }),
  ],
  '/terms': [as('visitor', '/terms')],
  '/privacy': [as('visitor', '/privacy')],
  '/cancellation': [as('visitor', '/cancellation')],
  '/refund': [as('visitor', '/refund')],
  '/billing': [as('visitor', '/billing')],
  '/share/:token': [as('visitor', (made) => made.sharePath)],
  '/verify/:certificateId': [as('visitor', (made) => `/verify/${made.certificateId}`)],
  '/demo/paypal/approve': [as('payer', (made) => made.paypalApprovePath)],
  '/demo/razorpay/pay/:id': [as('payer', (made) => made.razorpayPayPath)],
  '/signin': [as('visitor', '/signin')],
  '/signup': [as('visitor', '/signup')],
  '/forgot': [as('visitor', '/forgot')],
  '/reset-password/:token': [as('visitor', (made) => made.resetPasswordPath)],
  '/verify-email/:token': [as('member', (made) => made.verifyEmailPath)],
  '/home': [as('member', '/home')],
  '/create': [as('member', '/create'), as('payer', '/create')],
  '/topics/:outlineId': [as('member', (made) => made.outlinePath)],
  '/documents/:documentId': [as('member', (made) => made.documentPath)],
  '/course/:courseId': [
    // A finished course on a paid plan, and a free member's course just generated: their
    // course bars differ (Certificate or progress, SCORM), and so does where Share sits.
    as('member', (made) => `/course/${made.courseId}`, { use: openTheSharePanel }),
    as('payer', (made) => `/course/${made.payerCourseId}`, { use: openTheSharePanel }),
  ],
  '/course/:courseId/notes': [as('member', (made) => `/course/${made.courseId}/notes`)],
  '/course/:courseId/delete': [as('member', (made) => `/course/${made.courseId}/delete`)],
  '/course/:courseId/cards': [as('member', (made) => `/course/${made.courseId}/cards`)],
  '/cards/:cardId': [as('member', (made) => made.cardPath)],
  '/lesson/:lessonId/edit': [as('member', (made) => `/lesson/${made.lessonId}/edit`)],
  '/lesson/:lessonId/history': [as('member', (made) => `/lesson/${made.lessonId}/history`)],
  '/review': [as('member', '/review')],
  '/quiz/:courseId/:quizId': [as('member', (made) => made.quizPath)],
  '/quiz/:courseId/:quizId/edit': [as('member', (made) => `${made.quizPath}/edit`)],
  '/certificate/:courseId': [as('member', (made) => `/certificate/${made.courseId}`)],
  '/profile': [as('member', '/profile')],
  '/subscription': [as('member', '/subscription')],
  '/success': [as('member', (made) => made.successPath)],
  '/successful': [as('member', (made) => made.successfulPath)],
  '/payment': [as('payer', '/payment?plan=monthly')],
  '/pending': [as('payer', (made) => made.pendingPath)],
  '/dashboard': [as('admin', '/dashboard')],
  '/users': [as('admin', '/users')],
  '/courses': [as('admin', '/courses')],
  '/paid': [as('admin', '/paid')],
  '/admins': [as('admin', '/admins')],
  '/contacts': [as('admin', '/contacts')],
  '/admin/outbox': [as('admin', '/admin/outbox')],
  '/admin/outbox/:id': [as('admin', (made) => made.outboxEmailPath)],
  '/admin/queues': [as('admin', '/admin/queues')],
  '/admin/billing-demo': [as('admin', '/admin/billing-demo')],
  // The main admin's alone (ADR 0055): any other admin meets the not-found page.
  '/admin/settings': [as('admin', '/admin/settings', { status: 404 })],
  '/editterms': [as('admin', '/editterms')],
  '/editprivacy': [as('admin', '/editprivacy')],
  '/editcancellation': [as('admin', '/editcancellation')],
  '/editrefund': [as('admin', '/editrefund')],
  '/editbilling': [as('admin', '/editbilling')],
  // Swagger UI, a resource route that answers with its own HTML document.
  '/api/docs': [as('visitor', '/api/docs', { use: tryTheApiDocs })],
};

/** Resolves once `done` says so, checking every second; throws naming `what` after two minutes. */
async function until(done: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 120_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited two minutes for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

const PASTED_MATERIAL = [
  '# Rivers',
  'Rivers carry water from the hills to the sea and shape valleys as they go. '.repeat(2),
  '# Mountains',
  'Mountains form where tectonic plates collide and push rock upwards. '.repeat(2),
].join('\n\n');

describe('the pages of app/routes.ts', () => {
  it('has a URL for every page of app/routes.ts, and no URL for a page that is gone', async () => {
    const patterns = (await pageRoutes()).map((route) => route.pattern);
    const missing = patterns.filter((pattern) => !VISITS[pattern]);
    const stale = Object.keys(VISITS).filter((pattern) => !patterns.includes(pattern));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });
});

describe('every page on a phone and a laptop', () => {
  let app: RunningApp;
  let browser: Browser;
  const pages = new Map<Role, Page>();
  let made: Made;

  const pageOf = (role: Role) => pages.get(role)!;
  const path = (page: Page) => {
    const url = new URL(page.url());
    return url.pathname + url.search;
  };

  /** The newest link of this kind in an email to `email`, as the mailbox would show it. */
  async function linkFromOutbox(email: string, kind: 'reset-password' | 'verify-email') {
    const pattern = new RegExp(`https?://[^"\\s]+/${kind}/[A-Za-z0-9_-]+`);
    for (let tries = 0; tries < 80; tries += 1) {
      const mails = await appDatabase(app)
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.to, email.toLowerCase()));
      const href = mails
        .map((mail) => pattern.exec(mail.html ?? '')?.[0])
        .filter(Boolean)
        .at(-1);
      if (href) return new URL(href).pathname;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no ${kind} email for ${email}`);
  }

  async function fillPayment(page: Page) {
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Address').fill('1 Analytical Street');
    await page.getByLabel('Postal Code').fill('10115');
    await page.getByLabel('Country').selectOption('DE');
  }

  async function newOutline(page: Page, topic: string, subtopic: string, pasted?: string) {
    await page.goto('/create');
    await hydrated(page);
    await page.getByLabel('Topic', { exact: true }).fill(topic);
    await page.getByLabel('Sub Topic 1').fill(subtopic);
    if (pasted) await page.getByLabel('Or paste text').fill(pasted);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/, { timeout: 60_000 });
    await page.getByTestId('outline').waitFor({ timeout: 60_000 });
    return path(page);
  }

  /**
   * A member's course, generated and studied to the end: its quiz, its cards, its certificate,
   * a share link; then an outline from pasted material (left to edit), a paid plan (PayPal), a
   * plan change, an email change and a password reset asked for.
   */
  async function walkMember(page: Page): Promise<Partial<Made>> {
    const member = await signUp(page, app, { name: 'Ada Lovelace' });
    await newOutline(page, 'Volcanoes', 'Lava');
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    const courseId = new URL(page.url()).pathname.split('/')[2]!;
    const outline = page.getByRole('navigation', { name: 'Course topics' });
    const lessonLinks = outline.locator('a[data-state]');
    // Every lesson written (the page shows them as they come).
    await until(async () => {
      const total = await lessonLinks.count();
      return total > 0 && (await outline.locator('a[data-state="done"]').count()) === total;
    }, 'every lesson written');
    // Studying every lesson (each is marked studied once opened) finishes the course.
    const lessons = await lessonLinks.count();
    for (let i = 0; i < lessons; i += 1) {
      await lessonLinks.nth(i).click();
      await lessonLinks.nth(i).getByRole('img', { name: 'done' }).waitFor({ timeout: 30_000 });
    }
    const quizPath = await outline
      .getByTestId('quiz-link')
      .first()
      .getByRole('link', { name: 'Topic quiz' })
      .getAttribute('href');

    const lessonId = (await page.getByTestId('lesson').getAttribute('data-lesson-id'))!;
    await page.getByTestId('share-course').locator('summary').click();
    await page.getByTestId('share-course').getByRole('button', { name: 'Create link' }).click();
    const shareLink = await page.getByTestId('share-link').inputValue();

    await page.goto(`/certificate/${courseId}`);
    await page.getByTestId('congratulations').waitFor({ timeout: 30_000 });
    const certificateId = (await page.getByTestId('certificate-id').innerText()).trim();

    // The cards are written after the lessons: the course's card list fills in.
    const cardLink = page.getByRole('link', { name: 'Edit' }).first();
    await until(async () => {
      await page.goto(`/course/${courseId}/cards`);
      return (await cardLink.count()) > 0;
    }, 'the cards written');
    const cardPath = (await cardLink.getAttribute('href'))!;

    // A course from pasted material: its outline (left to edit) names the material.
    const outlinePath = await newOutline(page, 'Geography', 'Rivers', PASTED_MATERIAL);
    const documentPath = (await page
      .getByTestId('outline-material')
      .getByRole('link')
      .getAttribute('href'))!;

    // A paid plan through PayPal (approved), then a plan change (approved).
    await page.goto('/payment?plan=monthly');
    await hydrated(page);
    await fillPayment(page);
    await page.getByRole('button', { name: 'PayPal' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/success\?/);
    const successPath = path(page);
    await page.goto('/subscription');
    await hydrated(page);
    await page.getByRole('button', { name: 'Modify Subscription' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/successful\?/);
    const successfulPath = path(page);

    // An email change waits for its link; a password reset is asked for.
    await page.goto('/profile');
    await hydrated(page);
    const newEmail = uniqueEmail('moved');
    await page.getByLabel('Email', { exact: true }).fill(newEmail);
    await page.getByLabel('Current Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const verifyEmailPath = await linkFromOutbox(newEmail, 'verify-email');

    return {
      courseId,
      quizPath: quizPath!,
      cardPath,
      lessonId,
      certificateId,
      sharePath: new URL(shareLink).pathname,
      outlinePath,
      documentPath,
      successPath,
      successfulPath,
      verifyEmailPath,
      resetPasswordPath: await askForReset(member.email),
    };
  }

  /** A visitor asks for a password reset for the member; the link from the email. */
  async function askForReset(email: string) {
    const page = pageOf('visitor');
    await page.goto('/forgot');
    await hydrated(page);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    return linkFromOutbox(email, 'reset-password');
  }

  /** A free member with a new course, at a checkout left open: Razorpay pending, PayPal not approved. */
  async function walkPayer(page: Page): Promise<Partial<Made>> {
    await signUp(page, app, { name: 'Grace Hopper' });
    await newOutline(page, 'Rivers', 'Deltas');
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    const payerCourseId = new URL(page.url()).pathname.split('/')[2]!;
    await page.goto('/payment?plan=monthly');
    await hydrated(page);
    await fillPayment(page);
    await page.getByRole('button', { name: 'Razorpay' }).click();
    await page.waitForURL('**/pending?subscription_id=*');
    const pendingPath = path(page);
    const payLink = (await page.getByRole('link', { name: 'Payment Link' }).getAttribute('href'))!;
    await page.goto('/payment?plan=yearly');
    await hydrated(page);
    await fillPayment(page);
    await page.getByRole('button', { name: 'PayPal' }).click();
    await page.waitForURL('**/demo/paypal/approve?ba_token=*');
    return {
      payerCourseId,
      pendingPath,
      razorpayPayPath: new URL(payLink, app.baseURL).pathname,
      paypalApprovePath: path(page),
    };
  }

  /**
   * The main admin (seeded from ADMIN_EMAIL) makes a newly signed-up member an admin from the
   * Users table; that admin is the one whose pages are checked. A visitor's message fills Contacts.
   */
  async function walkAdmin(page: Page): Promise<Partial<Made>> {
    const visitor = pageOf('visitor');
    await visitor.goto('/contact');
    await hydrated(visitor);
    await visitor.getByLabel('First Name').fill('Vera');
    await visitor.getByLabel('Last Name').fill('Visitor');
    await visitor.getByLabel('Email').fill('vera@example.com');
    await visitor.getByLabel('Phone').fill('5551234');
    await visitor.getByLabel('Message').fill('Do you offer courses for schools?');
    await visitor.getByRole('button', { name: 'Submit' }).click();
    await visitor.locator('.Toastify').getByText('Your message has been sent').waitFor();

    const future = await signUpInBrowser(page, { name: 'Future Admin' });
    await logOutInBrowser(page);
    await signInInBrowser(page, app.adminEmail, app.adminPassword);
    await page.goto(`/users?q=${encodeURIComponent(future.email)}`);
    await hydrated(page);
    await page
      .getByRole('row')
      .filter({ hasText: future.email })
      .getByRole('button', { name: 'Add Admin' })
      .click();
    await page.locator('.Toastify').getByText('Admin added').waitFor();
    await logOutInBrowser(page);
    await signInInBrowser(page, future.email, future.password);
    await page.goto('/admin/outbox');
    const outboxEmailPath = (await page
      .getByRole('table')
      .getByRole('link')
      .first()
      .getAttribute('href'))!;
    return { outboxEmailPath };
  }

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    for (const role of ['visitor', 'member', 'payer', 'admin'] as const) {
      const context = await browser.newContext({ baseURL: app.baseURL });
      pages.set(role, await context.newPage());
    }
    const [member, payer] = await Promise.all([
      walkMember(pageOf('member')),
      walkPayer(pageOf('payer')),
    ]);
    // The outbox holds the member's and the payer's emails by now.
    const admin = await walkAdmin(pageOf('admin'));
    made = { ...member, ...payer, ...admin } as Made;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await closeAppDatabases();
    await app?.stop();
  });

  it('fits a 390 px phone and a 1280 px laptop without sideways scrolling, with no serious or critical axe violation', async () => {
    const failures: string[] = [];
    for (const [pattern, visits] of Object.entries(VISITS)) {
      for (const visit of visits) {
        const page = pageOf(visit.role);
        const url = visit.url(made);
        await page.setViewportSize(VIEWPORTS[0]);
        const response = await page.goto(url);
        const status = response?.status();
        if (status !== (visit.status ?? 200)) {
          failures.push(`${visit.role} ${url} (${pattern}): answered ${status}`);
          continue;
        }
        if (visit.use) await visit.use(page);
        else await hydrated(page);
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          // One frame for the layout at the new size.
          await page.evaluate(() => new Promise(requestAnimationFrame));
          for (const problem of await pageProblems(page))
            failures.push(`${visit.role} ${url} at ${viewport.width} px: ${problem}`);
        }
      }
    }
    if (failures.length > 0) console.error(failures.join('\n'));
    expect(failures).toEqual([]);
  }, 600_000);
});
