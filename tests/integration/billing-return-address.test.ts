import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approveMockPayPal, mockPayPalCancelUrl } from '../../mocks/paypal';
import { emailsTo, uniqueEmail, uniqueIp } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import * as dashboard from '~/routes/admin/dashboard';
import * as apiPaypal from '~/routes/api/api.paypal';
import * as apiPaypalUpdate from '~/routes/api/api.paypalupdate';
import * as apiSignup from '~/routes/api/api.signup';
import * as paymentPage from '~/routes/member/payment';
import * as pendingPage from '~/routes/member/pending';
import * as successPage from '~/routes/member/success';
import { createSession } from '~/utils/auth.server';
import { env, resetEnvForTests } from '~/utils/env.server';
import { startVendorMocks } from '~/utils/mocks.server';

/**
 * Issue 31, item 14: with APP_URL unset, a member who opened the app at http://127.0.0.1:3000
 * or a LAN name came back from PayPal to http://localhost:3000, signed out. Providers now send
 * members back to the address they are using; emailed links stay on APP_URL; admins are told.
 */
function configure(vars: { APP_URL?: string; TRUST_PROXY?: string }) {
  delete process.env.APP_URL;
  delete process.env.TRUST_PROXY;
  Object.assign(process.env, vars);
  resetEnvForTests();
}
beforeAll(() => {
  configure({});
  startVendorMocks();
});
afterEach(() => configure({}));

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: { clientIp: string };
}) => unknown;

/** A request as the web server hands it to Remix: the URL carries the host the browser used. */
async function call(
  handler: Handler,
  url: string,
  options: {
    method?: string;
    cookie?: string;
    json?: object;
    form?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
) {
  const headers = new Headers(options.headers);
  headers.set('Host', new URL(url).host);
  if (options.cookie) headers.set('Cookie', options.cookie);
  let body: string | undefined;
  if (options.json) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(options.form).toString();
  }
  const request = new Request(url, {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  try {
    return await handler({ request, params: {}, context: { clientIp: uniqueIp() } });
  } catch (thrown) {
    return thrown;
  }
}

async function member(role: 'member' | 'admin' = 'member') {
  const email = uniqueEmail('return');
  const user = await createUser({ email, name: 'Return', password: 'long-enough-pw', role });
  return { user, email, cookie: (await createSession(user.id)).split(';')[0]! };
}

const checkout = (email: string) => ({
  planId: 'monthly',
  email,
  name: 'Ada',
  lastName: 'Lovelace',
  post: '10115',
  address: '1 Analytical Street',
  country: 'DE',
});

/** POST /api/paypal from `origin`: the approval link PayPal answers with. */
async function startPayPal(origin: string, cookie: string, email: string, headers = {}) {
  const response = (await call(apiPaypal.action, `${origin}/api/paypal`, {
    cookie,
    json: checkout(email),
    headers,
  })) as Response;
  expect(response.status).toBe(200);
  const { links } = (await response.json()) as { links: { href: string }[] };
  return new URL(links[0]!.href);
}

describe('with APP_URL unset', () => {
  it('sends a member on a LAN address back there from PayPal, whether they approve or cancel', async () => {
    const { cookie, email } = await member();
    const approval = await startPayPal('http://192.168.1.20:3000', cookie, email);
    expect(approval.origin).toBe('http://192.168.1.20:3000');
    const token = approval.searchParams.get('ba_token')!;
    expect(await mockPayPalCancelUrl(token)).toMatch(/^http:\/\/192\.168\.1\.20:3000\/failed\?/);
    const back = new URL((await approveMockPayPal(token))!);
    expect(`${back.origin}${back.pathname}`).toBe('http://192.168.1.20:3000/success');
    expect(back.searchParams.get('method')).toBe('paypal');

    // There the member is still signed in: the return page makes them paid.
    const page = await call(successPage.loader, back.href, { cookie });
    expect(page).toMatchObject({ ok: true });
  });

  it('brings a plan change back to the address in use too', async () => {
    const { cookie, email } = await member();
    const first = await startPayPal('http://127.0.0.1:3000', cookie, email);
    const back = new URL((await approveMockPayPal(first.searchParams.get('ba_token')!))!);
    expect(await call(successPage.loader, back.href, { cookie })).toMatchObject({ ok: true });

    const response = (await call(apiPaypalUpdate.action, 'http://127.0.0.1:3000/api/paypalupdate', {
      cookie,
      json: {},
    })) as Response;
    expect(response.status).toBe(200);
    const { links } = (await response.json()) as { links: { href: string }[] };
    const token = new URL(links[0]!.href).searchParams.get('ba_token')!;
    expect(await mockPayPalCancelUrl(token)).toMatch(/^http:\/\/127\.0\.0\.1:3000\/subscription\?/);
    expect(await approveMockPayPal(token)).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/successful\?plan=yearly&/,
    );
  });

  it('opens the simulated Razorpay payment link at the address in use', async () => {
    const { cookie, email } = await member();
    const response = (await call(paymentPage.action, 'http://myserver:3000/payment?plan=monthly', {
      cookie,
      form: {
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        address: '1 Harvard Yard',
        postalCode: '02138',
        country: 'US',
        provider: 'razorpay',
      },
    })) as Response;
    expect(response.status).toBe(302);
    const pending = new URL(response.headers.get('Location')!, 'http://myserver:3000');
    const { link } = (await call(pendingPage.loader, pending.href, { cookie })) as { link: string };
    expect(link).toMatch(/^http:\/\/myserver:3000\/demo\/razorpay\/pay\/sub_/);
  });

  it('believes X-Forwarded-Proto and X-Forwarded-Host only with TRUST_PROXY', async () => {
    const proxied = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'courses.example.org' };
    const { cookie, email } = await member();
    const untrusted = await startPayPal('http://10.0.0.5:3000', cookie, email, proxied);
    expect(untrusted.origin).toBe('http://10.0.0.5:3000');

    configure({ TRUST_PROXY: 'true' });
    const other = await member();
    const trusted = await startPayPal('http://10.0.0.5:3000', other.cookie, other.email, proxied);
    expect(trusted.origin).toBe('https://courses.example.org');
  });

  it('keeps emailed links on APP_URL, whatever address the member used', async () => {
    const email = uniqueEmail('welcome');
    const response = (await call(apiSignup.action, 'http://192.168.1.20:3000/api/signup', {
      json: { email, mName: 'Welcome', password: 'long-enough-password', type: 'free' },
    })) as Response;
    expect(response.status).toBe(200);
    const [welcome] = await emailsTo(email);
    expect(welcome?.html).toContain(`${env().APP_URL}/create`);
    expect(welcome?.html).not.toContain('192.168.1.20');
  });

  it('tells admins on the dashboard, and stops once APP_URL is set', async () => {
    const admin = await member('admin');
    const unset = (await call(dashboard.loader, 'http://127.0.0.1:3000/dashboard', {
      cookie: admin.cookie,
    })) as { unsetAppUrl: string | null };
    expect(unset.unsetAppUrl).toBe(env().APP_URL);

    configure({ APP_URL: 'https://courses.example.com' });
    const set = (await call(dashboard.loader, 'http://127.0.0.1:3000/dashboard', {
      cookie: admin.cookie,
    })) as { unsetAppUrl: string | null };
    expect(set.unsetAppUrl).toBeNull();
  });
});

describe('with APP_URL set', () => {
  it('sends every member back to APP_URL, whatever address they used', async () => {
    configure({ APP_URL: 'https://courses.example.com' });
    const { cookie, email } = await member();
    const approval = await startPayPal('http://192.168.1.20:3000', cookie, email);
    expect(approval.origin).toBe('https://courses.example.com');
    expect(await approveMockPayPal(approval.searchParams.get('ba_token')!)).toMatch(
      /^https:\/\/courses\.example\.com\/success\?/,
    );
  });
});
