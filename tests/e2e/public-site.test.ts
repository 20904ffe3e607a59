import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createCookie, createCookieSessionStorage } from '@remix-run/node';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hydrated, launchBrowser, newPage } from '../support/browser';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

/** The running app's SQLite file, opened for one operation. */
function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'coursegen.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function sessionSecret() {
  return (
    process.env.SESSION_SECRET ?? fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8')
  ).trim();
}

/**
 * A member with the given plan, signed in the way the app signs people in: a
 * session row holding the token's SHA-256 and the signed cookie carrying it.
 */
async function signedInContext(browser: Browser, plan: 'free' | 'monthly' | 'yearly') {
  const id = randomBytes(8).toString('hex');
  const token = randomBytes(32).toString('base64url');
  withDb((db) => {
    db.prepare(
      `insert into users (id, email, name, password_hash, plan, role) values (?, ?, ?, 'x', ?, 'member')`,
    ).run(id, `member-${id}@e2e.test`, `Member ${id}`, plan);
    db.prepare(`insert into sessions (id, user_id, expires_at) values (?, ?, ?)`).run(
      createHash('sha256').update(token).digest('hex'),
      id,
      Date.now() + 60 * 60 * 1000,
    );
  });
  const header = await createCookie('__session', { secrets: [sessionSecret()] }).serialize(token);
  const value = header.slice('__session='.length).split(';')[0]!;
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: '__session', value, url: baseURL }]);
  return context;
}

/** After a client-side navigation the URL changes a moment before the new page renders. */
async function headingShown(page: Page, text: string) {
  await page
    .getByRole('heading', { level: 1, name: text, exact: true })
    .waitFor({ timeout: 30_000 });
}

async function toastWith(page: Page, text: string) {
  const toast = page.locator('.Toastify__toast', { hasText: text });
  await toast.waitFor({ timeout: 30_000 });
  return toast;
}

async function metaContent(page: Page, selector: string) {
  return page.locator(`head meta[${selector}]`).getAttribute('content');
}

const POLICY_PAGES = [
  { path: '/terms', title: 'Terms', text: 'These terms apply to everyone' },
  { path: '/privacy', title: 'Privacy Policy', text: 'What we collect' },
  { path: '/cancellation', title: 'Cancellation Policy', text: 'You can cancel a paid plan' },
  { path: '/refund', title: 'Refund Policy', text: 'When we do refund' },
  { path: '/billing', title: 'Subscription & Billing Policy', text: 'Renewal' },
];

describe('the public site in a browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function visitorPage(options: { javaScriptEnabled?: boolean } = {}) {
    const context = await browser.newContext({ baseURL, ...options });
    contexts.push(context);
    return context.newPage();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  it('shows the landing page: hero, blurbs, how it works, plans, testimonial, banner', async () => {
    const page = await visitorPage();
    await page.goto('/');
    const main = page.locator('main');
    await expect(
      page
        .getByRole('heading', { level: 1, name: 'Generate a course on anything with AI' })
        .count(),
    ).resolves.toBe(1);
    await expect(
      main.getByRole('link', { name: 'SignIn', exact: true }).getAttribute('href'),
    ).resolves.toBe('/signin');
    await expect(
      main.getByRole('link', { name: 'SignUp', exact: true }).getAttribute('href'),
    ).resolves.toBe('/signup');
    for (const heading of ['Study Online', 'Create Course', 'How it works']) {
      await expect(main.getByRole('heading', { name: heading }).isVisible()).resolves.toBe(true);
    }
    await expect(main.locator('.steps > li h3').allInnerTexts()).resolves.toEqual([
      'Enter Course Title',
      'AI Generates Sub-Topics',
      'Video & Theory Course',
    ]);
    await expect(main.locator('.plan-card h3').allInnerTexts()).resolves.toEqual([
      'Free Plan',
      'Monthly Plan',
      'Yearly Plan',
    ]);
    await expect(main.locator('figure.testimonial blockquote').innerText()).resolves.toMatch(
      /Machine Learning/,
    );
    const banner = main.locator('.get-started');
    await expect(
      banner.getByRole('link', { name: 'Get Started' }).getAttribute('href'),
    ).resolves.toBe('/signup');

    await expect(page.title()).resolves.toMatch(/CourseGen$/);
    await expect(metaContent(page, 'name="description"')).resolves.toMatch(/course title/);
    await expect(metaContent(page, 'property="og:title"')).resolves.toBe(await page.title());
    await expect(metaContent(page, 'property="og:description"')).resolves.toMatch(/course/);
  });

  it('shows features and about, each with a Contact button to /contact', async () => {
    const page = await visitorPage();
    for (const { path: route, title } of [
      { path: '/features', title: 'Features' },
      { path: '/about', title: 'About' },
    ]) {
      await page.goto(route);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(title);
      await expect(page.title()).resolves.toBe(`${title} | CourseGen`);
      await expect(metaContent(page, 'name="description"')).resolves.toBeTruthy();
      await page.locator('main').getByRole('link', { name: 'Contact', exact: true }).click();
      await page.waitForURL('**/contact');
      await headingShown(page, 'Contact');
    }
  });

  it('shows the three plans on /pricing with Get Started for a visitor', async () => {
    const page = await visitorPage();
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Pricing');
    const free = page.getByTestId('plan-free');
    const monthly = page.getByTestId('plan-monthly');
    const yearly = page.getByTestId('plan-yearly');
    await expect(free.locator('.plan-price').innerText()).resolves.toBe('$0');
    await expect(monthly.locator('.plan-price').innerText()).resolves.toBe('$8 per month');
    await expect(yearly.locator('.plan-price').innerText()).resolves.toBe('$88 per year');
    for (const card of [free, monthly, yearly])
      await expect(card.locator('.plan-features > li').count()).resolves.toBe(5);
    // Only the free plan's video line is struck out.
    await expect(page.locator('.plan-features s').allInnerTexts()).resolves.toEqual([
      'Video & Theory Course',
    ]);
    await expect(free.locator('s').innerText()).resolves.toBe('Video & Theory Course');

    const button = (card: typeof free) => card.getByRole('link', { name: /Get Started|Modify/ });
    await expect(button(monthly).innerText()).resolves.toBe('Get Started');
    await expect(button(monthly).getAttribute('href')).resolves.toBe('/payment?plan=monthly');
    await expect(button(yearly).getAttribute('href')).resolves.toBe('/payment?plan=yearly');
    await expect(button(free).getAttribute('href')).resolves.toBe('/signup');

    await expect(page.getByRole('heading', { name: 'Benefits' }).isVisible()).resolves.toBe(true);
    await expect(
      page.locator('main').getByRole('link', { name: 'Contact', exact: true }).getAttribute('href'),
    ).resolves.toBe('/contact');
  });

  it('opens the FAQ answers and their links go to the policy pages', async () => {
    const page = await visitorPage();
    for (const [question, link, target, title] of [
      [
        'How do I cancel my subscription?',
        'Cancellation Policy',
        '/cancellation',
        'Cancellation Policy',
      ],
      ['Can I get a refund?', 'Refund Policy', '/refund', 'Refund Policy'],
      [
        'How does billing work?',
        'Subscription & Billing Policy',
        '/billing',
        'Subscription & Billing Policy',
      ],
    ] as const) {
      await page.goto('/pricing');
      const answerLink = page.locator('.faq').getByRole('link', { name: link });
      await expect(answerLink.isVisible()).resolves.toBe(false);
      await page.locator('.faq summary', { hasText: question }).click();
      await expect(answerLink.isVisible()).resolves.toBe(true);
      await answerLink.click();
      await page.waitForURL(`**${target}`);
      await headingShown(page, title);
    }
  });

  it('gives a free member Get Started and a paid member Modify Plan', async () => {
    const freeContext = await signedInContext(browser, 'free');
    contexts.push(freeContext);
    const freePage = await freeContext.newPage();
    await freePage.goto('/pricing');
    const freeMonthly = freePage.getByTestId('plan-monthly').getByRole('link');
    await expect(freeMonthly.innerText()).resolves.toBe('Get Started');
    await expect(freeMonthly.getAttribute('href')).resolves.toBe('/payment?plan=monthly');
    await expect(freePage.getByTestId('plan-free').innerText()).resolves.toContain(
      'Your current plan',
    );

    const paidContext = await signedInContext(browser, 'yearly');
    contexts.push(paidContext);
    const paidPage = await paidContext.newPage();
    await paidPage.goto('/pricing');
    for (const plan of ['free', 'monthly', 'yearly']) {
      const link = paidPage.getByTestId(`plan-${plan}`).getByRole('link');
      await expect(link.innerText()).resolves.toBe('Modify Plan');
      await expect(link.getAttribute('href')).resolves.toBe('/subscription');
    }
    await paidPage.getByTestId('plan-yearly').getByRole('link').click();
    await paidPage.waitForURL('**/subscription');
    await headingShown(paidPage, 'Subscription');
  });

  it('contact: the required-fields toast on an empty submit, then a stored message', async () => {
    const page = await visitorPage();
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Contact');
    await expect(page.getByText('Enter your details and ask your query').isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByLabel('Email').getAttribute('type')).resolves.toBe('email');
    await expect(page.getByLabel('Phone').getAttribute('inputmode')).resolves.toBe('numeric');
    await expect(page.getByLabel('Message').evaluate((element) => element.tagName)).resolves.toBe(
      'TEXTAREA',
    );
    await hydrated(page);

    await page.getByRole('button', { name: 'Submit' }).click();
    await toastWith(page, 'Please fill in all required fields');

    const message = `I would like a course on Rust, please (${randomBytes(4).toString('hex')})`;
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Phone').fill('5551234567');
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Submit' }).click();
    await toastWith(page, 'Your message has been sent');
    await expect(page.getByLabel('Message').inputValue()).resolves.toBe('');

    const stored = withDb((db) =>
      db
        .prepare('select first_name, last_name, email, phone from contacts where message = ?')
        .get(message),
    );
    expect(stored).toEqual({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone: '5551234567',
    });
  });

  it('contact works without JavaScript too', async () => {
    const page = await visitorPage({ javaScriptEnabled: false });
    await page.goto('/contact');
    await page.getByLabel('First Name').fill('Alan');
    await page.getByRole('button', { name: 'Submit' }).click();
    // The answer is a new page from the server; wait for it rather than the old one.
    await page
      .getByTestId('contact-notice')
      .filter({ hasText: 'Please fill in all required fields' })
      .waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('contact-notice').getAttribute('role')).resolves.toBe('alert');
    // What was typed is still there.
    await expect(page.getByLabel('First Name').inputValue()).resolves.toBe('Alan');

    const message = `No-JS message ${randomBytes(4).toString('hex')}`;
    await page.getByLabel('Last Name').fill('Turing');
    await page.getByLabel('Email').fill('alan@example.com');
    await page.getByLabel('Phone').fill('4401234567');
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .getByTestId('contact-notice')
      .filter({ hasText: 'Your message has been sent' })
      .waitFor({ timeout: 30_000 });
    await expect(page.getByLabel('Message').inputValue()).resolves.toBe('');
    const count = withDb(
      (db) =>
        (
          db.prepare('select count(*) as n from contacts where message = ?').get(message) as {
            n: number;
          }
        ).n,
    );
    expect(count).toBe(1);
  });

  it('shows each policy page with its title and the stored text', async () => {
    const page = await visitorPage();
    for (const policy of POLICY_PAGES) {
      await page.goto(policy.path);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(policy.title);
      await expect(page.getByTestId('policy-content').innerText()).resolves.toContain(policy.text);
      await expect(page.title()).resolves.toBe(`${policy.title} | CourseGen`);
      await expect(metaContent(page, 'property="og:description"')).resolves.toBeTruthy();
    }
    const response = await fetch(`${baseURL}/api/policies`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, string>[];
    expect(body).toHaveLength(1);
    expect(Object.keys(body[0]!).sort()).toEqual([
      'billing',
      'cancel',
      'privacy',
      'refund',
      'terms',
    ]);
    expect(body[0]!.refund).toContain('When we do refund');
  });

  it('renders a stored policy containing script and an onerror handler without running either', async () => {
    const original = withDb(
      (db) =>
        db.prepare(`select html from policies where key = 'refund'`).get() as { html: string },
    );
    const hostile = [
      '<p>Refunds are handled by email.</p>',
      '<script>window.__xss = "script ran"; document.title = "pwned";</script>',
      '<img src="/logo.svg" alt="logo" onerror="window.__xss = \'onerror ran\'" onload="window.__xss = \'onload ran\'">',
      '<img src="/no-such-image.png" alt="broken" onerror="window.__xss = \'onerror ran\'">',
      '<a href="javascript:window.__xss=\'link ran\'">Click me</a>',
      '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
    ].join('');
    withDb((db) => db.prepare(`update policies set html = ? where key = 'refund'`).run(hostile));
    try {
      const page = await visitorPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto('/refund');
      await hydrated(page);
      const content = page.getByTestId('policy-content');
      await expect(content.innerText()).resolves.toContain('Refunds are handled by email.');
      await expect(content.locator('script').count()).resolves.toBe(0);
      await expect(content.locator('iframe').count()).resolves.toBe(0);
      await expect(content.locator('[onerror], [onload]').count()).resolves.toBe(0);
      await expect(content.locator('img').count()).resolves.toBe(2);
      const link = content.getByText('Click me');
      await expect(link.getAttribute('href')).resolves.toBeNull();
      await link.click();
      await page.waitForTimeout(300);
      await expect(
        page.evaluate(() => (window as { __xss?: string }).__xss),
      ).resolves.toBeUndefined();
      await expect(page.title()).resolves.toBe('Refund Policy | CourseGen');
      expect(dialogs).toEqual([]);

      const api = (await (await fetch(`${baseURL}/api/policies`)).json()) as Record<
        string,
        string
      >[];
      expect(api[0]!.refund).toContain('Refunds are handled by email.');
      expect(api[0]!.refund).not.toMatch(/<script|onerror|onload|javascript:|<iframe/i);
    } finally {
      withDb((db) =>
        db.prepare(`update policies set html = ? where key = 'refund'`).run(original.html),
      );
    }
  });

  it('reads every public page without JavaScript', async () => {
    const page = await visitorPage({ javaScriptEnabled: false });
    const pages = [
      { path: '/', heading: 'Generate a course on anything with AI' },
      { path: '/features', heading: 'Features' },
      { path: '/about', heading: 'About' },
      { path: '/pricing', heading: 'Pricing' },
      { path: '/contact', heading: 'Contact' },
      ...POLICY_PAGES.map((p) => ({ path: p.path, heading: p.title })),
    ];
    for (const { path: route, heading } of pages) {
      const response = await page.goto(route);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(heading);
    }
    // The FAQ accordion is native, so it opens without JavaScript.
    await page.goto('/pricing');
    await page.locator('.faq summary', { hasText: 'Can I get a refund?' }).click();
    await expect(
      page.locator('.faq').getByRole('link', { name: 'Refund Policy' }).isVisible(),
    ).resolves.toBe(true);
  });

  it('shows a toast the server flashed, on a full page load', async () => {
    // The toast cookie a redirect sets (toastHeader), made the same way.
    const storage = createCookieSessionStorage({
      cookie: { name: 'toast', path: '/', sameSite: 'lax', secrets: [sessionSecret()] },
    });
    const session = await storage.getSession();
    session.flash('toast', { type: 'success', message: 'Flashed by the server' });
    const value = (await storage.commitSession(session)).slice('toast='.length).split(';')[0]!;
    const page = await visitorPage();
    await page.context().addCookies([{ name: 'toast', value, url: baseURL }]);
    await page.goto('/');
    const toast = await toastWith(page, 'Flashed by the server');
    await expect(toast.getAttribute('role')).resolves.toBe('alert');
    // Shown once: the cookie was consumed.
    await page.reload();
    await hydrated(page);
    await page.waitForTimeout(500);
    await expect(page.locator('.Toastify__toast', { hasText: 'Flashed' }).count()).resolves.toBe(0);
  });

  it('meets WCAG AA text contrast on every public page in both themes', async () => {
    const page = await newPage(browser, baseURL);
    contexts.push(page.context());
    const routes = ['/', '/features', '/about', '/pricing', '/contact', '/terms'];
    for (const theme of ['light', 'dark'] as const) {
      await page.goto('/');
      if ((await page.locator('html').getAttribute('data-theme')) !== theme) {
        await page.getByTestId('theme-toggle').click();
        await page.waitForSelector(`html[data-theme="${theme}"]`);
      }
      for (const route of routes) {
        await page.goto(route);
        // Open the FAQ so its answers are checked too.
        for (const details of await page.locator('details').all())
          await details.evaluate((element) => element.setAttribute('open', ''));
        const failures = await page.evaluate(contrastFailures);
        expect(failures, `${theme} ${route}`).toEqual([]);
      }
    }
  });
});

/**
 * Runs in the page: every visible element with its own text, its colour
 * against the first opaque background behind it, and the WCAG AA minimum
 * (3:1 for large text, 4.5:1 otherwise). Returns the elements that fall short.
 */
function contrastFailures(): string[] {
  const parse = (value: string) => {
    const parts = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts.length > 3 ? parts[3]! : 1 };
  };
  const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const backgroundOf = (element: Element | null) => {
    for (let node = element; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color.a >= 0.99) return color;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const failures: string[] = [];
  for (const element of document.querySelectorAll('body *')) {
    const ownText = [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? '')
      .join('')
      .trim();
    if (!ownText) continue;
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    if (style.visibility === 'hidden' || box.width <= 1 || box.height <= 1) continue;
    if (element.closest('[aria-hidden="true"], .visually-hidden, .skip-link, .Toastify')) continue;
    const fg = parse(style.color);
    const bg = backgroundOf(element);
    const l1 = luminance(fg);
    const l2 = luminance(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    if (ratio < (large ? 3 : 4.5))
      failures.push(
        `${element.tagName.toLowerCase()} "${ownText.slice(0, 40)}" ${ratio.toFixed(2)}`,
      );
  }
  return failures;
}
