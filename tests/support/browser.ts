import fs from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeAppDatabases } from './members';

function chromiumPath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (!found)
    throw new Error(
      'Chromium not found: install it (apt-get install chromium) or set CHROME_PATH.',
    );
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * Resolves once React has hydrated the page (the toast area mounts only then). A button that
 * acts through JavaScript does nothing when clicked before that, which a busy machine makes likely.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('section.Toastify').waitFor({ state: 'attached', timeout: 30_000 });
}

/** A fresh browser context (own cookies) with one page. */
export async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

/**
 * The browser of one describe block of browser tests, against the app e2e-global-setup started:
 * launched before its tests, closed after them with any database handles they opened.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  const baseURL = inject('baseURL');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await closeAppDatabases();
  });
  const launched = () => {
    if (!browser) throw new Error('the browser is launched in beforeAll');
    return browser;
  };
  return {
    baseURL,
    dataDir: inject('dataDir'),
    get browser() {
      return launched();
    },
    /** A fresh context (own cookies) on the app, with one page. */
    async newPage(options: BrowserContextOptions = {}): Promise<Page> {
      const context = await launched().newContext({ baseURL, ...options });
      return context.newPage();
    },
  };
}
