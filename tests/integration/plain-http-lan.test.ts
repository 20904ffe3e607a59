import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/accounts';
import { startApp, type RunningApp } from '../support/app-process';

/**
 * A self-hoster runs the image with the `docker run -p 3000:3000` of docs/self-hosting.md and no APP_URL, and
 * opens http://myserver:3000 from another machine: plain http, not localhost.
 */
let app: RunningApp;
beforeAll(async () => {
  app = await startApp({ APP_URL: '' });
}, 180_000);
afterAll(async () => {
  await app?.stop();
});

/**
 * A request as a browser on the LAN sends it: to this server, naming the host it typed (with
 * the server's port unless `host` names one).
 */
function request(
  host: string,
  method: string,
  path: string,
  { body, cookie }: { body?: object; cookie?: string } = {},
): Promise<{ status: number; cookies: string[]; text: string; location?: string }> {
  const port = new URL(app.baseURL).port;
  const payload = body ? JSON.stringify(body) : undefined;
  return new Promise((resolve, reject) => {
    const sent = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          Host: host.includes(':') ? host : `${host}:${port}`,
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
            : {}),
          ...(cookie ? { Cookie: cookie } : {}),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            cookies: response.headers['set-cookie'] ?? [],
            location: response.headers.location,
            text,
          }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

const session = (cookies: string[]) => cookies.find((c) => c.startsWith('__session='))!;

describe('signing in over plain http on a LAN address', () => {
  it('keeps the member signed in: no Secure cookie a browser would drop', async () => {
    const account = {
      mName: 'Lan Member',
      email: uniqueEmail('lan'),
      password: 'long-enough-password',
    };
    const signedUp = await request('myserver', 'POST', '/api/signup', { body: account });
    expect(signedUp.status).toBe(200);
    const cookie = session(signedUp.cookies);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/HttpOnly/);
    const profile = await request('myserver', 'GET', '/profile', { cookie: cookie.split(';')[0] });
    expect(profile.status).toBe(200);
  });

  it('keeps Secure where a browser keeps it (localhost), and warns that APP_URL is unset', async () => {
    const account = {
      mName: 'Local',
      email: uniqueEmail('local'),
      password: 'long-enough-password',
    };
    const signedUp = await request('localhost', 'POST', '/api/signup', { body: account });
    expect(session(signedUp.cookies)).toMatch(/;\s*Secure/i);
    expect(app.output()).toContain('APP_URL is not set');
  });
});

describe('paying from a LAN address while APP_URL is unset (issue 31, item 14)', () => {
  const checkout = {
    planId: 'monthly',
    name: 'Lan',
    lastName: 'Payer',
    post: '10115',
    address: '1 Network Street',
    country: 'DE',
  };

  async function lanMember() {
    const email = uniqueEmail('lan-payer');
    const signedUp = await request('myserver', 'POST', '/api/signup', {
      body: { mName: 'Lan Payer', email, password: 'long-enough-password' },
    });
    return { email, cookie: session(signedUp.cookies).split(';')[0]! };
  }

  async function approvalLink(cookie: string, email: string) {
    const started = await request('myserver', 'POST', '/api/paypal', {
      body: { ...checkout, email },
      cookie,
    });
    expect(started.status).toBe(200);
    return new URL((JSON.parse(started.text) as { links: { href: string }[] }).links[0]!.href);
  }

  it('comes back from PayPal to the LAN address, still signed in, and is paid', async () => {
    const port = new URL(app.baseURL).port;
    const { cookie, email } = await lanMember();
    const approve = await approvalLink(cookie, email);
    expect(approve.origin).toBe(`http://myserver:${port}`);
    const approved = await request('myserver', 'POST', `${approve.pathname}${approve.search}`, {
      cookie,
    });
    expect(approved.status).toBe(302);
    const back = new URL(approved.location!);
    expect(`${back.origin}${back.pathname}`).toBe(`http://myserver:${port}/success`);
    const landed = await request('myserver', 'GET', `${back.pathname}${back.search}`, { cookie });
    expect(landed.status).toBe(200);
    expect(landed.text).toContain('Thank You');
  });

  it('a Host header naming another address makes the server post nothing there (item 7)', async () => {
    let caught = 0;
    const catcher = http.createServer((req, res) => {
      caught += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => catcher.listen(0, '127.0.0.1', resolve));
    try {
      const { cookie, email } = await lanMember();
      const approve = await approvalLink(cookie, email);
      const elsewhere = `127.0.0.1:${(catcher.address() as AddressInfo).port}`;
      const approved = await request(elsewhere, 'POST', `${approve.pathname}${approve.search}`);
      expect(approved.status).toBe(302);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(caught).toBe(0);
    } finally {
      await new Promise((resolve) => catcher.close(resolve));
    }
  });

  it('tells the admin on the dashboard that APP_URL is unset', async () => {
    const signedIn = await request('localhost', 'POST', '/api/signin', {
      body: { email: app.adminEmail, password: app.adminPassword },
    });
    const cookie = session(signedIn.cookies).split(';')[0]!;
    const dashboard = await request('localhost', 'GET', '/dashboard', { cookie });
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain('data-testid="app-url-notice"');
    expect(dashboard.text).toContain('is not set');
  });
});
