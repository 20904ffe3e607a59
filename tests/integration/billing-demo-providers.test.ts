import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeKnobs } from '../../mocks/knobs';
import { mockPayPalApproval } from '../../mocks/paypal';
import { getMockRazorpaySubscription } from '../../mocks/razorpay';
import { pageResult, post, settle } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import * as billingDemo from '~/routes/admin/admin.billing-demo';
import * as apiPaypal from '~/routes/api/api.paypal';
import * as paymentPage from '~/routes/member/payment';
import * as demoApproval from '~/routes/public/demo.paypal.approve';
import * as demoPay from '~/routes/public/demo.razorpay.pay.$id';
import { retryDelayMs, retryDueDemoWebhooks } from '~/services/billing/demo-webhooks.server';
import { paypal } from '~/services/vendors/paypal.server';
import { razorpayProvider } from '~/services/vendors/razorpay.server';
import { createSession } from '~/utils/auth.server';
import { database, first, tables } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { startVendorMocks } from '~/utils/mocks.server';

/**
 * The simulated payment providers of demo mode, as issue 31 found them: they posted their
 * webhooks wherever a visitor's Host header pointed, lost subscriptions when several processes
 * wrote their state at once, and delivered each webhook once, failing the member's page when
 * that did not work. No worker runs here: a delivered webhook shows as its stored event.
 */
beforeAll(() => {
  startVendorMocks();
});
afterEach(() => {
  fs.rmSync(path.join(env().DATA_DIR, 'mock-knobs.json'), { force: true });
});

let counter = 0;
async function member(role: 'member' | 'admin' = 'member') {
  counter += 1;
  const email = `demo-provider-${counter}-${Date.now()}@example.com`;
  const user = await createUser({
    email,
    name: `Demo ${counter}`,
    password: 'long-enough-pw',
    role,
  });
  return { user, email, cookie: (await createSession(user.id)).split(';')[0]! };
}

async function paypalCheckout(cookie: string, email: string) {
  const response = (await post(
    apiPaypal.action,
    '/api/paypal',
    {
      planId: 'monthly',
      email,
      name: 'Ada',
      lastName: 'Lovelace',
      post: '10115',
      address: '1 Analytical Street',
      country: 'DE',
    },
    { cookie },
  )) as Response;
  expect(response.status).toBe(200);
  const { links } = (await response.json()) as { links: { href: string }[] };
  return new URL(links[0]!.href).searchParams.get('ba_token')!;
}

async function razorpayCheckout(cookie: string, email: string) {
  const response = (await settle(
    post(
      paymentPage.action,
      '/payment?plan=monthly',
      {
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        address: '1 Harvard Yard',
        postalCode: '02138',
        country: 'US',
        provider: 'razorpay',
      },
      { cookie, as: 'form' },
    ),
  )) as Response;
  expect(response.status).toBe(302);
  return new URL(response.headers.get('Location')!, 'http://x').searchParams.get(
    'subscription_id',
  )!;
}

/** An ordinary member's address (port 9: nothing listens there, whatever is tried). */
const MEMBER_HOST = '127.0.0.1:9';

/** A POST as the server hands it to Remix when the client sent `Host: <host>`. */
function postWithHost(host: string, pathAndQuery: string) {
  return new Request(`http://${host}${pathAndQuery}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: '',
  });
}

const eventsOf = async (provider: 'paypal' | 'razorpay', providerSubscriptionId: string) => {
  const { paymentEvents, subscriptions } = tables;
  const row = (await first(
    database()
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId)),
  ))!;
  return (
    await database()
      .select({ kind: paymentEvents.kind, provider: paymentEvents.provider })
      .from(paymentEvents)
      .where(eq(paymentEvents.subscriptionId, row.id))
  ).filter((event) => event.provider === provider);
};
const latestDelivery = async () => {
  const { demoWebhookDeliveries } = tables;
  return (await first(
    database()
      .select()
      .from(demoWebhookDeliveries)
      .orderBy(desc(demoWebhookDeliveries.id))
      .limit(1),
  ))!;
};

describe('demo webhooks go to the app itself only (item 7)', () => {
  let catcher: http.Server;
  let caught = 0;
  let hostOfCatcher = '';
  beforeAll(async () => {
    // Where a visitor would like the server to post: it must never hear from it.
    catcher = http.createServer((req, res) => {
      caught += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => catcher.listen(0, '127.0.0.1', resolve));
    hostOfCatcher = `127.0.0.1:${(catcher.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => catcher.close(resolve)));

  it('approving on the demo PayPal page with a forged Host posts nowhere else, and the webhook arrives', async () => {
    const { cookie, email } = await member();
    const token = await paypalCheckout(cookie, email);
    const response = (await settle(
      demoApproval.action({
        request: postWithHost(hostOfCatcher, `/demo/paypal/approve?ba_token=${token}`),
        params: {},
        context: {},
      }),
    )) as Response;
    expect(response.status).toBe(302);
    const subscriptionId = new URL(response.headers.get('Location')!).searchParams.get(
      'subscription_id',
    )!;
    expect(caught).toBe(0);
    expect(await eventsOf('paypal', subscriptionId)).toEqual([
      { kind: 'BILLING.SUBSCRIPTION.ACTIVATED', provider: 'paypal' },
    ]);
  });

  it('paying on the demo Razorpay page with a forged Host posts nowhere else, and the webhook arrives', async () => {
    const { cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    const answer = await demoPay.action({
      request: postWithHost(hostOfCatcher, `/demo/razorpay/pay/${id}`),
      params: { id },
      context: {},
    });
    expect(answer).toEqual({ paid: true });
    expect(caught).toBe(0);
    expect(await eventsOf('razorpay', id)).toEqual([
      { kind: 'subscription.activated', provider: 'razorpay' },
    ]);
  });
});

type Checkouts = Record<'paypal' | 'razorpay', { id: string; approvalUrl: string }[]>;

/** A process that starts `count` checkouts at each provider once told to go (tests/support). */
function checkoutsProcess(count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/demo-checkouts.ts'], {
    env: { ...process.env, COUNT: String(count), LOG_LEVEL: 'error' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`exited (${code}) before ready: ${out}`)));
  });
  const done = exited.then((code) => {
    const line = out.split('\n').find((text) => text.startsWith('{'));
    if (code !== 0 || !line) throw new Error(`exited (${code}): ${out}`);
    return JSON.parse(line) as Checkouts;
  });
  return { child, ready, done };
}

describe("the simulated providers' state under writes from several processes (item 8)", () => {
  it('keeps every one of 88 checkouts started at once by 4 processes', async () => {
    const processes = 4;
    const each = 11; // PayPal and as many Razorpay subscriptions per process: 44 of each
    const children = Array.from({ length: processes }, () => checkoutsProcess(each));
    await Promise.all(children.map(({ ready }) => ready));
    for (const { child } of children) child.stdin!.write('go\n');
    const results = await Promise.all(children.map(({ done }) => done));
    const started = {
      paypal: results.flatMap((result) => result.paypal),
      razorpay: results.flatMap((result) => result.razorpay),
    };
    expect(started.paypal).toHaveLength(processes * each);
    expect(started.razorpay).toHaveLength(processes * each);

    // Every one is still there at the provider, as the app asks for it.
    const kept = {
      paypal: await Promise.all(
        started.paypal.map(({ id }) =>
          paypal.fetchSubscription(id).then(
            (s) => s.status,
            () => 'lost',
          ),
        ),
      ),
      razorpay: await Promise.all(
        started.razorpay.map(({ id }) =>
          razorpayProvider.fetchSubscription(id).then(
            (s) => s.status,
            () => 'lost',
          ),
        ),
      ),
    };
    expect(kept.paypal.filter((status) => status !== 'pending')).toEqual([]);
    expect(kept.razorpay.filter((status) => status !== 'pending')).toEqual([]);
    // And so is each PayPal approval the buyer has yet to give.
    const approvals = await Promise.all(
      started.paypal.map(({ approvalUrl }) =>
        mockPayPalApproval(new URL(approvalUrl).searchParams.get('ba_token')!),
      ),
    );
    expect(approvals.filter((approval) => !approval)).toEqual([]);
  }, 120_000);

  it('takes in the JSON file an earlier version kept, once', async () => {
    const file = path.join(env().DATA_DIR, 'mock-razorpay.json');
    const legacy = { id: 'sub_Legacy000000001', status: 'active', plan_id: 'plan_DemoMonthly0001' };
    fs.writeFileSync(file, JSON.stringify({ subscriptions: { [legacy.id]: legacy } }));
    expect(await getMockRazorpaySubscription(legacy.id)).toEqual(legacy);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.imported`)).toBe(true);
  });
});

describe('failed webhook deliveries are retried with backoff, never failing the page (item 10)', () => {
  it('the member paying while the app cannot be reached sees the payment received; the webhook follows later', async () => {
    const { cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    writeKnobs(env().DATA_DIR, { MOCK_WEBHOOK_FAIL: true });

    const answer = await settle(
      demoPay.action({
        request: postWithHost(MEMBER_HOST, `/demo/razorpay/pay/${id}`),
        params: { id },
        context: {},
      }),
    );
    expect(answer).toEqual({ paid: true });
    expect((await getMockRazorpaySubscription(id))?.status).toBe('active');
    expect(await eventsOf('razorpay', id)).toEqual([]);

    // Tried again after 10 s, then twice as long each time, while the app stays unreachable.
    let delivery = await latestDelivery();
    expect(delivery).toMatchObject({ provider: 'razorpay', attempts: 1, deliveredAt: null });
    const waits = [delivery.nextAttemptAt!.getTime() - delivery.createdAt.getTime()];
    for (let attempt = 2; attempt <= 4; attempt += 1) {
      const at = delivery.nextAttemptAt!;
      expect(await retryDueDemoWebhooks(new Date(at.getTime() - 1000))).toBe(0); // not yet due
      expect(await retryDueDemoWebhooks(at)).toBe(0);
      delivery = await latestDelivery();
      expect(delivery.attempts).toBe(attempt);
      waits.push(delivery.nextAttemptAt!.getTime() - at.getTime());
    }
    expect(waits).toEqual([1, 2, 3, 4].map(retryDelayMs));
    expect(waits).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(await eventsOf('razorpay', id)).toEqual([]);

    // The app is back: the next retry delivers it, once.
    writeKnobs(env().DATA_DIR, {});
    expect(await retryDueDemoWebhooks(delivery.nextAttemptAt!)).toBe(1);
    expect(await latestDelivery()).toMatchObject({
      attempts: 5,
      nextAttemptAt: null,
      lastError: null,
    });
    expect((await latestDelivery()).deliveredAt).toBeInstanceOf(Date);
    expect(await retryDueDemoWebhooks(new Date(Date.now() + 86_400_000))).toBe(0);
    expect(await eventsOf('razorpay', id)).toEqual([
      { kind: 'subscription.activated', provider: 'razorpay' },
    ]);
  });

  it('the billing simulator says the webhook will be retried instead of failing', async () => {
    const admin = await member('admin');
    const { cookie, email } = await member();
    const token = await paypalCheckout(cookie, email);
    const approved = (await settle(
      demoApproval.action({
        request: postWithHost(MEMBER_HOST, `/demo/paypal/approve?ba_token=${token}`),
        params: {},
        context: {},
      }),
    )) as Response;
    const subscriptionId = new URL(approved.headers.get('Location')!).searchParams.get(
      'subscription_id',
    )!;
    writeKnobs(env().DATA_DIR, { MOCK_WEBHOOK_FAIL: true });
    const result = pageResult(
      await settle(
        post(
          billingDemo.action,
          '/admin/billing-demo',
          { provider: 'paypal', subscriptionId, what: 'halt' },
          { cookie: admin.cookie, as: 'form' },
        ),
      ),
    );
    expect(result).toEqual({
      status: 200,
      data: {
        success: true,
        message:
          'Simulated halt at PayPal. Its webhook could not be delivered yet; it will be retried.',
      },
    });
    expect((await paypal.fetchSubscription(subscriptionId)).status).toBe('suspended');
  });
});
