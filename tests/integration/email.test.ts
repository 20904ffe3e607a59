import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import {
  emailDelivery,
  resetEmailTransportForTests,
  sendEmail,
} from '~/services/vendors/mailer.server';
import { database, tables } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { freePort } from '../../scripts/lib/system';

afterEach(() => {
  delete process.env.SMTP_URL;
  process.env.DEMO_MODE = 'true';
  resetEnvForTests();
  resetEmailTransportForTests();
});

describe('the email service', () => {
  it('keeps each message in the outbox in demo mode', async () => {
    expect(emailDelivery()).toBe('outbox');
    const sent = await sendEmail({
      to: 'member@example.com',
      subject: 'Welcome to CourseGen',
      html: '<p>Hello</p>',
      attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('hi') }],
    });
    expect(sent).toBe(true);
    const [stored] = await database().select().from(tables.outboxEmails);
    expect(stored).toMatchObject({
      to: 'member@example.com',
      subject: 'Welcome to CourseGen',
      html: '<p>Hello</p>',
      attachments: [{ filename: 'a.txt', contentType: 'text/plain', base64: 'aGk=' }],
    });
  });

  it('delivers through SMTP when SMTP_URL is set', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push(raw);
          callback();
        });
      },
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
      resetEnvForTests();
      resetEmailTransportForTests();
      expect(emailDelivery()).toBe('smtp');
      const before = (await database().select().from(tables.outboxEmails)).length;

      await expect(
        sendEmail({
          to: 'someone@example.com',
          subject: 'Reset your password',
          html: '<p>Link</p>',
        }),
      ).resolves.toBe(true);

      expect(received).toHaveLength(1);
      expect(received[0]).toContain('Subject: Reset your password');
      expect(received[0]).toContain('To: someone@example.com');
      expect(await database().select().from(tables.outboxEmails)).toHaveLength(before);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('reports a failed delivery instead of throwing', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    resetEnvForTests();
    resetEmailTransportForTests();
    await expect(sendEmail({ to: 'x@example.com', subject: 'S', html: '<p>x</p>' })).resolves.toBe(
      false,
    );
  });
});
