import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/accounts';
import { startApp, type RunningApp } from '../support/app-process';

/**
 * A self-hoster runs the image with the README's `docker run -p 3000:3000` and no APP_URL, and
 * opens http://myserver:3000 from another machine: plain http, not localhost.
 */
let app: RunningApp;
beforeAll(async () => {
  app = await startApp({ APP_URL: '' });
}, 180_000);
afterAll(async () => {
  await app?.stop();
});

/** A request as a browser on the LAN sends it: to this server, naming the host it typed. */
function request(
  host: string,
  method: string,
  path: string,
  { body, cookie }: { body?: object; cookie?: string } = {},
): Promise<{ status: number; cookies: string[]; text: string }> {
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
          Host: `${host}:${port}`,
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
