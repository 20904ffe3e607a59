import {
  getQueuedMail,
  markMailSent,
  queueMail,
  recordMailFailure,
} from '~/models/mail-queue.server';
import { mailQueueJobs } from '~/queues/mail.server';
import { log } from '~/utils/logger.server';
import { deliverEmail, type Email } from './vendors/mailer.server';

/**
 * Mail that must reach its recipient goes through the mail queue: `queueMail` records it inside
 * the transaction of the change it reports; `dispatchMail`, once that transaction is committed,
 * sends it at once and leaves a failure to the worker, which retries with backoff. If the
 * process dies in between, the worker's sweep finds the unsent row and sends it.
 */
export { queueMail };

export async function dispatchMail(...mailIds: string[]) {
  for (const mailId of mailIds) {
    try {
      await deliverQueuedMail(mailId);
    } catch (error) {
      log.warn('mail.send_failed', { mailId, error, next: 'retried by the worker' });
      try {
        await mailQueueJobs.add({ mailId });
      } catch (error) {
        log.warn('mail.enqueue_failed', { mailId, error });
      }
    }
  }
}

/** Records and dispatches in one go, for mail that reports a change already committed. */
export async function sendDurably(...mails: Email[]) {
  const mailIds: string[] = [];
  for (const mail of mails) mailIds.push(await queueMail(mail));
  await dispatchMail(...mailIds);
}

/** The worker's half: sends a queued mail once; throws to be retried. */
export async function deliverQueuedMail(
  mailId: string,
): Promise<'sent' | 'already-sent' | 'gone' | 'disabled'> {
  const mail = await getQueuedMail(mailId);
  if (!mail) return 'gone';
  if (mail.sentAt) return 'already-sent';
  try {
    const outcome = await deliverEmail({
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text ?? undefined,
    });
    await markMailSent(
      mailId,
      outcome === 'disabled' ? 'not sent: this install sends no email' : null,
    );
    return outcome;
  } catch (error) {
    await recordMailFailure(
      mailId,
      mail.attempts + 1,
      error instanceof Error ? error.message : String(error),
    );
    throw error;
  }
}
