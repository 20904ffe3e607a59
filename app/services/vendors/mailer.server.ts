import type { Transporter } from 'nodemailer';
import { keepInOutbox } from '~/models/outbox.server';
import { brand, emailSender } from '~/services/brand.server';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';

interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Email {
  to: string;
  subject: string;
  html: string;
  text?: string;
  attachments?: EmailAttachment[];
}

export type EmailDelivery = 'smtp' | 'outbox' | 'disabled';

/** SMTP when configured; the demo outbox when simulating; otherwise mail is off. */
export function emailDelivery(): EmailDelivery {
  const { SMTP_URL, demo } = env();
  if (SMTP_URL) return 'smtp';
  return demo ? 'outbox' : 'disabled';
}

let transporter: Transporter | undefined;

/** nodemailer is loaded with the first message: a process that sends none never holds it. */
async function transport(): Promise<Transporter> {
  const delivery = emailDelivery();
  const nodemailer = (await import('nodemailer')).default;
  transporter ??=
    delivery === 'smtp'
      ? nodemailer.createTransport(env().SMTP_URL)
      : nodemailer.createTransport({ jsonTransport: true });
  return transporter;
}

/** For tests that switch SMTP_URL between cases. */
export function resetEmailTransportForTests() {
  transporter = undefined;
}

/**
 * Delivers one message or throws. Every mail goes through nodemailer; in demo mode its JSON
 * transport renders the message and the outbox keeps it for the admin to read. 'disabled' when
 * this install sends no mail (no SMTP_URL outside demo mode).
 */
export async function deliverEmail(email: Email): Promise<'sent' | 'disabled'> {
  const delivery = emailDelivery();
  if (delivery === 'disabled') {
    log.warn('email.disabled', { to: email.to, subject: email.subject, hint: 'set SMTP_URL' });
    return 'disabled';
  }
  // The brand's name over EMAIL_FROM's address; replies go to its support email when it has one.
  const from = await emailSender();
  const { supportEmail } = await brand();
  const info = await (
    await transport()
  ).sendMail({
    from,
    ...(supportEmail ? { replyTo: supportEmail } : {}),
    ...email,
  });
  if (delivery === 'outbox') {
    await keepInOutbox({
      to: email.to,
      from,
      subject: email.subject,
      html: email.html,
      text: email.text ?? null,
      attachments: (email.attachments ?? []).map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        base64: a.content.toString('base64'),
      })),
    });
  }
  log.info('email.sent', {
    delivery,
    to: email.to,
    subject: email.subject,
    messageId: info.messageId,
  });
  return 'sent';
}

/**
 * Sends one message now. Returns false (and logs) instead of throwing: a failed email never
 * breaks the flow that sent it.
 */
export async function sendEmail(email: Email): Promise<boolean> {
  try {
    return (await deliverEmail(email)) === 'sent';
  } catch (error) {
    log.error('email.failed', {
      delivery: emailDelivery(),
      to: email.to,
      subject: email.subject,
      error,
    });
    return false;
  }
}
