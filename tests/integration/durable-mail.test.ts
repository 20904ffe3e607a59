import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getQueuedMail, queueMail } from '~/models/mail-queue.server';
import { createPendingSubscription, recordActivePayment } from '~/models/subscriptions.server';
import { createUser } from '~/models/users.server';
import { sweepLostWork } from '~/services/work-sweeper.server';
import { newId } from '~/utils/ids.server';
import { welcomeEmail } from '~/services/email-templates.server';
import { dispatchMail } from '~/services/mail.server';
import { resetEmailTransportForTests } from '~/services/vendors/mailer.server';
import { database, tables } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/** Mail that must be sent is a row written with the change; nothing between them can lose it. */
const workers: WorkerProcess[] = [];
afterEach(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  resetEmailTransportForTests();
  await Promise.all(workers.splice(0).map((worker) => stopWorker(worker)));
});

const outboxTo = (to: string) => {
  const { outboxEmails } = tables;
  return database().select().from(outboxEmails).where(eq(outboxEmails.to, to));
};

async function waitFor(probe: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the mail queue', () => {
  it('delivers the welcome email of an account whose web process died before sending it', async () => {
    const email = `crash-${Date.now()}@example.com`;
    // What sign-up commits: the account and its welcome mail, in one transaction; then the
    // web process dies before it sends anything.
    let mailId = '';
    await createUser({ email, name: 'Crash Member', password: 'a-long-password' }, async (user) => {
      mailId = await queueMail({ to: user.email, ...(await welcomeEmail(user.name)) });
    });
    expect(await outboxTo(email)).toHaveLength(0);
    // Past the grace the queuing process had to send it.
    const { mailQueue } = tables;
    await database()
      .update(mailQueue)
      .set({ createdAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(mailQueue.id, mailId));

    const worker = spawnWorker();
    workers.push(worker);
    await worker.ready;
    await waitFor(async () => (await outboxTo(email)).length === 1);
    expect((await outboxTo(email))[0]!.subject).toBe((await welcomeEmail('Crash Member')).subject);
    // The worker marks the mail sent just after the send: a moment after the outbox shows it.
    await waitFor(async () => (await getQueuedMail(mailId))?.sentAt != null);
    const row = (await getQueuedMail(mailId))!;
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.html).toBe(''); // a sent body is not kept
  });

  it('keeps a mail the mail server refused and lets the worker retry it', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:9'; // nothing listens: refused
    resetEnvForTests();
    resetEmailTransportForTests();
    const email = `refused-${Date.now()}@example.com`;
    const mailId = await queueMail({ to: email, subject: 'Welcome', html: '<p>Hi</p>' });
    await dispatchMail(mailId);
    const row = (await getQueuedMail(mailId))!;
    expect(row.sentAt).toBeNull();
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/ECONNREFUSED/);
  });

  it('sends a receipt whose sender died after claiming its email', async () => {
    const member = await createUser({
      email: `receipt-${Date.now()}@example.com`,
      name: 'Paying Member',
      password: 'a-long-password',
    });
    const subscription = await createPendingSubscription({
      id: newId(),
      userId: member.id,
      provider: 'paypal',
      providerSubscriptionId: `I-${newId()}`,
      plan: 'monthly',
      amountCents: 800,
      currency: 'USD',
      approvalUrl: 'https://example.com/approve',
      customer: {
        email: member.email,
        firstName: 'Paying',
        lastName: 'Member',
        address: '1 Street',
        postalCode: '10115',
        country: 'DE',
      },
    });
    const { receipt } = await recordActivePayment(
      subscription.id,
      {
        status: 'active',
        plan: 'monthly',
        amountCents: 800,
        currency: 'USD',
        startedAt: new Date(),
        nextBillingAt: null,
      },
      { key: 'payment-1', amountCents: 800, currency: 'USD', paidAt: new Date() },
    );
    // Claimed for sending 20 minutes ago by a process that then died: never sent.
    const { receipts } = tables;
    await database()
      .update(receipts)
      .set({
        emailClaimedAt: new Date(Date.now() - 20 * 60_000),
        createdAt: new Date(Date.now() - 21 * 60_000),
      })
      .where(eq(receipts.number, receipt!.number));
    expect(await outboxTo(member.email)).toHaveLength(0);

    expect((await sweepLostWork()).receipts).toBe(1);
    const mails = await outboxTo(member.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/receipt #\d{6}/);
    expect((await sweepLostWork()).receipts).toBe(0); // once
  });
});
