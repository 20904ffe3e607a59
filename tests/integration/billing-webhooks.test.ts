import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../../db/schema';
import { approveMockPayPal, simulatePayPal, type PayPalSimulation } from '../../mocks/paypal';
import { simulateRazorpay, type RazorpaySimulation } from '../../mocks/razorpay';
import { post, settle } from '../support/account-routes';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';
import { createUser } from '~/models/users.server';
import * as apiPaypal from '~/routes/api/api.paypal';
import * as apiRazorpayDetails from '~/routes/api/api.razorapydetails';
import * as apiRazorpayPending from '~/routes/api/api.razorapypending';
import * as paymentPage from '~/routes/member/payment';
import * as paypalWebhook from '~/routes/api/webhooks.paypal';
import * as razorpayWebhook from '~/routes/api/webhooks.razorpay';
import { reconcileSubscriptions } from '~/services/billing/reconciliation.server';
import { paypalWebhookId } from '~/services/vendors/paypal.server';
import { createSession } from '~/utils/auth.server';
import { database, first, tables } from '~/utils/database.server';
import { startVendorMocks } from '~/utils/mocks.server';

/**
 * Razorpay through its real SDK, and both providers' signed webhooks, against
 * the HTTP mocks, with a real worker applying the stored events.
 */
let worker: WorkerProcess;
beforeAll(async () => {
  startVendorMocks();
  worker = spawnWorker();
  await worker.ready;
});
afterAll(async () => {
  await stopWorker(worker);
});

let counter = 0;
async function member() {
  counter += 1;
  const email = `hooked-${counter}-${Date.now()}@example.com`;
  const user = await createUser({
    email,
    name: `Hooked ${counter}`,
    password: 'long-enough-password',
    plan: 'free',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie, email };
}

const customer = {
  email: '',
  firstName: 'Grace',
  lastName: 'Hopper',
  address: '1 Harvard Yard',
  postalCode: '02138',
  country: 'US',
};

async function json(response: unknown) {
  const res = response as Response;
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Checkout with Razorpay on /payment: the member lands on /pending; returns the subscription id. */
async function razorpayCheckout(cookie: string, email: string, plan = 'monthly') {
  const response = (await settle(
    post(
      paymentPage.action,
      `/payment?plan=${plan}`,
      { ...customer, email, provider: 'razorpay' },
      { cookie, as: 'form' },
    ),
  )) as Response;
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('Location')!, 'http://localhost');
  expect(location.pathname).toBe('/pending');
  return location.searchParams.get('subscription_id')!;
}

async function paypalCheckout(cookie: string, email: string) {
  const started = await json(
    await post(
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
    ),
  );
  const approve = new URL((started.body.links as { href: string }[])[0]!.href);
  const back = new URL((await approveMockPayPal(approve.searchParams.get('ba_token')!))!);
  return back.searchParams.get('subscription_id')!;
}

async function razorpayDelivery(id: string, what: RazorpaySimulation) {
  const event = (await simulateRazorpay(id, what))!;
  return {
    send: () =>
      post(
        razorpayWebhook.action,
        '/webhooks/razorpay',
        {},
        {
          raw: { body: event.body, contentType: 'application/json' },
          headers: {
            'x-razorpay-signature': event.signature,
            'x-razorpay-event-id': event.eventId,
          },
        },
      ),
    event,
  };
}

async function paypalDelivery(id: string, what: PayPalSimulation) {
  const event = (await simulatePayPal(id, what, paypalWebhookId()!))!;
  return () =>
    post(
      paypalWebhook.action,
      '/webhooks/paypal',
      {},
      {
        raw: { body: event.body, contentType: 'application/json' },
        headers: event.headers,
      },
    );
}

const planOf = async (userId: string) => {
  const { users } = tables;
  return (await first(
    database().select({ plan: users.plan }).from(users).where(eq(users.id, userId)),
  ))!.plan;
};
const rowOf = async (provider: PaymentProvider, id: string) => {
  const { subscriptions } = tables;
  return (await first(
    database().select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, id)),
  ))!;
};
const receiptsOf = (userId: string) => {
  const { receipts } = tables;
  return database().select().from(receipts).where(eq(receipts.userId, userId));
};
const mailTo = (email: string) => {
  const { outboxEmails } = tables;
  return database().select().from(outboxEmails).where(eq(outboxEmails.to, email));
};
const eventsFor = (subscriptionId: string) => {
  const { paymentEvents } = tables;
  return database()
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.subscriptionId, subscriptionId));
};

async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Razorpay checkout', () => {
  it('stays pending until paid, then activates from Razorpay’s word', async () => {
    const { user, cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    const pending = await json(
      await post(apiRazorpayPending.action, '/api/razorapypending', { sub: id }, { cookie }),
    );
    expect(pending.body).toMatchObject({ status: 'pending' });
    expect(await planOf(user.id)).toBe('free');
    await simulateRazorpay(id, 'pay'); // paid, with the webhook lost
    const details = await json(
      await post(
        apiRazorpayDetails.action,
        '/api/razorapydetails',
        { subscriberId: id, plan: 'yearly' },
        { cookie },
      ),
    );
    // Razorpay's own subscription entity, as the spec's success page reads it.
    expect(details.body).toMatchObject({ id, entity: 'subscription', status: 'active' });
    expect(await planOf(user.id)).toBe('monthly');
    expect(await receiptsOf(user.id)).toEqual([
      expect.objectContaining({ amountCents: 800, currency: 'USD' }),
    ]);
  });
});

describe('signed webhooks', () => {
  it('refuses a forged or unsigned Razorpay webhook and stores nothing', async () => {
    const { user, cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    const { event } = await razorpayDelivery(id, 'pay');
    for (const signature of [
      '',
      'deadbeef',
      event.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    ]) {
      const response = (await settle(
        post(
          razorpayWebhook.action,
          '/webhooks/razorpay',
          {},
          {
            raw: { body: event.body, contentType: 'application/json' },
            headers: { 'x-razorpay-signature': signature, 'x-razorpay-event-id': event.eventId },
          },
        ),
      )) as Response;
      expect(response.status).toBe(400);
    }
    expect(await eventsFor((await rowOf('razorpay', id)).id)).toEqual([]);
    expect(await planOf(user.id)).toBe('free');
  });

  it('refuses a forged PayPal webhook and stores nothing', async () => {
    const { user, cookie, email } = await member();
    const id = await paypalCheckout(cookie, email);
    const event = (await simulatePayPal(id, 'activated', paypalWebhookId()!))!;
    const forged = (await settle(
      post(
        paypalWebhook.action,
        '/webhooks/paypal',
        {},
        {
          raw: { body: event.body, contentType: 'application/json' },
          headers: { ...event.headers, 'paypal-transmission-sig': 'Zm9yZ2Vk' },
        },
      ),
    )) as Response;
    expect(forged.status).toBe(400);
    const unsigned = (await settle(
      post(
        paypalWebhook.action,
        '/webhooks/paypal',
        {},
        { raw: { body: event.body, contentType: 'application/json' } },
      ),
    )) as Response;
    expect(unsigned.status).toBe(400);
    expect(await eventsFor((await rowOf('paypal', id)).id)).toEqual([]);
    expect(await planOf(user.id)).toBe('free');
  });

  it('applies the same event delivered three times once: one activation, one receipt, one email', async () => {
    const { user, cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    const delivery = await razorpayDelivery(id, 'pay');
    const responses = await Promise.all([delivery.send(), delivery.send(), delivery.send()]);
    for (const response of responses) expect((response as Response).status).toBe(200);
    await eventually(async () => (await planOf(user.id)) === 'monthly');
    await eventually(async () =>
      (await mailTo(email)).some((mail) => mail.subject.includes('receipt')),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await eventsFor((await rowOf('razorpay', id)).id)).toHaveLength(1);
    expect(await receiptsOf(user.id)).toHaveLength(1);
    expect((await mailTo(email)).filter((mail) => mail.subject.includes('receipt'))).toHaveLength(
      1,
    );
  });

  it('stores a signed Razorpay event once however its unsigned event-id header changes, and emails once', async () => {
    // Issue 31, item 2: the same signed body with 13 fresh X-Razorpay-Event-Id values made 13
    // events and 13 "payment failed" emails.
    const { user, cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    await (await razorpayDelivery(id, 'pay')).send();
    await eventually(async () => (await planOf(user.id)) === 'monthly');
    const { event } = await razorpayDelivery(id, 'fail');
    const statuses = [];
    for (let i = 0; i < 13; i += 1) {
      const response = (await post(
        razorpayWebhook.action,
        '/webhooks/razorpay',
        {},
        {
          raw: { body: event.body, contentType: 'application/json' },
          headers: {
            'x-razorpay-signature': event.signature,
            'x-razorpay-event-id': `evt_replayed${i}${Date.now()}`,
          },
        },
      )) as Response;
      statuses.push(response.status);
    }
    expect(statuses).toEqual(Array(13).fill(200));
    const failedMail = async () =>
      (await mailTo(email)).filter((mail) => mail.subject.includes('payment failed'));
    await eventually(async () => (await failedMail()).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stored = (await eventsFor((await rowOf('razorpay', id)).id)).filter(
      (e) => e.kind === 'subscription.pending',
    );
    expect(stored).toHaveLength(1);
    expect(await failedMail()).toHaveLength(1);

    // The header stays a second key: a delivery repeating a stored header is a duplicate too.
    const halt = (await razorpayDelivery(id, 'halt')).event;
    const sameHeader = (await post(
      razorpayWebhook.action,
      '/webhooks/razorpay',
      {},
      {
        raw: { body: halt.body, contentType: 'application/json' },
        headers: {
          'x-razorpay-signature': halt.signature,
          'x-razorpay-event-id': stored[0]!.headerEventId!,
        },
      },
    )) as Response;
    expect(sameHeader.status).toBe(200);
    expect(
      (await eventsFor((await rowOf('razorpay', id)).id)).some(
        (e) => e.kind === 'subscription.halted',
      ),
    ).toBe(false);
  });

  it('ends cancelled when the cancellation arrives before the activation it follows', async () => {
    const { user, cookie, email } = await member();
    const id = await paypalCheckout(cookie, email);
    const activated = await paypalDelivery(id, 'activated');
    const cancelled = await paypalDelivery(id, 'cancel');
    expect(((await cancelled()) as Response).status).toBe(200);
    expect(((await activated()) as Response).status).toBe(200);
    await eventually(async () => (await eventsFor((await rowOf('paypal', id)).id)).length === 2);
    await eventually(async () => {
      const row = await rowOf('paypal', id);
      return row.status !== 'pending' && row;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await rowOf('paypal', id)).status).not.toBe('active');
    expect(await planOf(user.id)).toBe('free');
  });

  it('records a renewal: a new receipt, emailed, and the next billing moves', async () => {
    const { user, cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    await (await razorpayDelivery(id, 'pay')).send();
    await eventually(async () => (await receiptsOf(user.id)).length === 1);
    const firstNext = (await rowOf('razorpay', id)).nextBillingAt!;
    await (await razorpayDelivery(id, 'renew')).send();
    await eventually(async () => (await receiptsOf(user.id)).length === 2);
    await eventually(
      async () =>
        (await mailTo(email)).filter((mail) => mail.subject.includes('receipt')).length === 2,
    );
    expect((await rowOf('razorpay', id)).nextBillingAt!.getTime()).toBeGreaterThan(
      firstNext.getTime(),
    );
    expect(await planOf(user.id)).toBe('monthly');
  });

  it('emails the member about a failed charge, and a halt drops them to free', async () => {
    const { user, cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    await (await razorpayDelivery(id, 'pay')).send();
    await eventually(async () => (await planOf(user.id)) === 'monthly');
    await (await razorpayDelivery(id, 'fail')).send();
    const failed = await eventually(async () =>
      (await mailTo(email)).find((mail) => mail.subject.includes('payment failed')),
    );
    expect(failed.html).toContain('/subscription');
    expect(await planOf(user.id)).toBe('monthly');
    await (await razorpayDelivery(id, 'halt')).send();
    await eventually(async () => (await planOf(user.id)) === 'free');
  });

  it('corrects a webhook lost on purpose in the reconciliation', async () => {
    const { user, cookie, email } = await member();
    const id = await razorpayCheckout(cookie, email);
    await simulateRazorpay(id, 'pay'); // the activation webhook never arrives
    expect(await planOf(user.id)).toBe('free');
    // A one-minute period: one round re-checks everything not checked in the last minute.
    const corrections = await reconcileSubscriptions(new Date(), 1);
    const rowId = (await rowOf('razorpay', id)).id;
    expect(corrections).toContainEqual({ subscriptionId: rowId, outcome: 'activated' });
    expect(await planOf(user.id)).toBe('monthly');
    // Idempotent: a second run finds nothing to correct for it.
    expect(
      (await reconcileSubscriptions(new Date(), 1)).some((c) => c.subscriptionId === rowId),
    ).toBe(false);
  });
});
