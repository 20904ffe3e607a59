import http from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { insertCourse } from '../support/courses';
import { createMember, signInAs } from '../support/members';

/**
 * The API from a browser, as its clients use it (ADR 0035): a member makes a token on /profile;
 * a page served from another origin calls /api/courses and /api/course with it through CORS when
 * its origin is in API_ALLOWED_ORIGINS (the suite's app allows http://127.0.0.1:<port>), and is
 * refused from any other (the same page at http://localhost:<port>). /api/docs renders the
 * OpenAPI document under the site's CSP, from this server alone.
 */

/** The API client: a static page of another origin, whose script calls the API with a token. */
const CLIENT_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>API client</title></head>
<body><h1>API client</h1>
<script>
  window.callApi = async (base, token) => {
    const call = async (path, init = {}) => {
      try {
        const response = await fetch(base + path, {
          ...init,
          headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' },
        });
        return { status: response.status, body: await response.json(), next: response.headers.get('Link') };
      } catch (error) {
        return { error: String(error) };
      }
    };
    const before = await call('/api/courses');
    const created = await call('/api/course', {
      method: 'POST',
      body: JSON.stringify({
        mainTopic: 'From Another Origin',
        type: 'text',
        content: JSON.stringify({ 'from another origin': [{ title: 'Basics', subtopics: [
          { title: 'Hello', theory: '<p>Hello</p>', image: 'https://images.example/hello.png', done: false },
        ] }] }),
      }),
    });
    const after = await call('/api/courses');
    // With the site's cookie and no token: never allowed across origins.
    let withCookie;
    try {
      withCookie = (await fetch(base + '/api/courses', { credentials: 'include' })).status;
    } catch (error) {
      withCookie = String(error);
    }
    return { before, created, after, withCookie };
  };
</script>
</body></html>`;

interface Call {
  status?: number;
  // The API's JSON, read field by field below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body?: any;
  error?: string;
}
interface ClientRun {
  before: Call;
  created: Call;
  after: Call;
  withCookie: number | string;
}
type ClientWindow = { callApi: (base: string, token: string) => Promise<ClientRun> };

/** Runs the client page's script against the app, with the token. */
function runClient(page: Page, base: string, token: string): Promise<ClientRun> {
  return page.evaluate(
    ([appBase, key]) => (window as unknown as ClientWindow).callApi(appBase!, key!),
    [base, token],
  );
}

describe('the API from a browser page on another origin', () => {
  const e2e = useBrowser();
  const { baseURL, dataDir } = e2e;
  const port = inject('apiClientPort');
  let server: http.Server;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(CLIENT_PAGE);
    });
    // Every interface: the allowed origin is 127.0.0.1, the refused one localhost (maybe ::1).
    await new Promise<void>((resolve) => server.listen(port, resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('makes a token on /profile, shown once, and calls the API with it from an allowed origin only', async () => {
    const member = await createMember(dataDir);
    await insertCourse(dataDir, member.id, { mainTopic: 'Made Here', lessons: 2, allDone: false });
    const page = await e2e.newPage();
    await signInAs(page.context(), baseURL, dataDir, member);

    await page.goto('/profile');
    await page.getByLabel('Token name').fill('My client page');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-api-token');
    await expect.poll(() => shown.count()).toBe(1);
    const token = await shown.inputValue();
    expect(token).toMatch(/^cgk_/);
    await page.reload();
    await expect(page.getByTestId('new-api-token').count()).resolves.toBe(0);
    await expect(page.getByTestId('api-token').innerText()).resolves.toContain('My client page');

    // The allowed origin: both calls go through, with the token only.
    const client = await page.context().newPage();
    await client.goto(`http://127.0.0.1:${port}/`);
    const allowed = await runClient(client, baseURL, token);
    expect(allowed.before).toMatchObject({ status: 200 });
    expect(allowed.before.body.map((c: { mainTopic: string }) => c.mainTopic)).toEqual([
      'Made Here',
    ]);
    expect(allowed.created).toMatchObject({ status: 200, body: { success: true } });
    expect(allowed.after.body.map((c: { mainTopic: string }) => c.mainTopic)).toEqual([
      'From Another Origin',
      'Made Here',
    ]);
    expect(allowed.after.body[0]).toMatchObject({
      photo: 'https://images.example/hello.png',
      content: expect.stringContaining('"from another origin"'),
    });
    // The site's own session cookie is no credential across origins.
    expect(String(allowed.withCookie)).toMatch(/TypeError|Failed to fetch/);

    // The same page on an origin not in the list: refused by the browser, nothing made.
    const refusedPage = await page.context().newPage();
    await refusedPage.goto(`http://localhost:${port}/`);
    const refused = await runClient(refusedPage, baseURL, token);
    expect(refused.before.error).toMatch(/TypeError|Failed to fetch/);
    expect(refused.created.error).toMatch(/TypeError|Failed to fetch/);
    const list = await page.request.get(`${baseURL}/api/courses`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await list.json()) as unknown[]).length).toBe(2);
  });
});

describe('/api/docs', () => {
  const e2e = useBrowser();

  it('renders every operation of the OpenAPI document under the CSP, from this server alone', async () => {
    const page = await e2e.newPage();
    const violations: string[] = [];
    const foreign: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text()))
        violations.push(message.text());
    });
    page.on('pageerror', (error) => violations.push(String(error)));
    page.on('request', (request) => {
      if (!request.url().startsWith(e2e.baseURL) && !request.url().startsWith('data:'))
        foreign.push(request.url());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`Refused to ${event.violatedDirective}: ${event.blockedURI}`);
      });
    });
    const response = await page.goto('/api/docs');
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
    const operations = page.locator('.opblock');
    await expect.poll(() => operations.count(), { timeout: 20_000 }).toBeGreaterThan(38);
    await expect(page.getByText('/api/courses', { exact: true }).first().isVisible()).resolves.toBe(
      true,
    );
    // Open one operation: its schema renders too.
    await page.locator('#operations-Courses-courses').click();
    await expect.poll(() => page.getByText('content').count()).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
