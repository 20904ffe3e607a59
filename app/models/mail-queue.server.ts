import { and, eq, isNull, lt } from 'drizzle-orm';
import { mailQueue } from '../../db/schema';
import { db } from '~/utils/db.server';
import { newId } from '~/utils/ids.server';

export type QueuedMail = typeof mailQueue.$inferSelect;

/** Records a mail that must be sent; call it inside the transaction of the change it reports. */
export function queueMail(mail: { to: string; subject: string; html: string; text?: string }) {
  const id = newId();
  db()
    .insert(mailQueue)
    .values({ id, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text ?? null })
    .run();
  return id;
}

export function getQueuedMail(id: string): QueuedMail | undefined {
  return db().select().from(mailQueue).where(eq(mailQueue.id, id)).get();
}

/** Sent (or, with a note, given up): the body (a reset link, say) is cleared, the row stays. */
export function markMailSent(id: string, note: string | null = null) {
  db()
    .update(mailQueue)
    .set({ sentAt: new Date(), html: '', text: null, lastError: note })
    .where(eq(mailQueue.id, id))
    .run();
}

export function recordMailFailure(id: string, attempts: number, message: string) {
  db()
    .update(mailQueue)
    .set({ attempts, lastError: message.slice(0, 500) })
    .where(eq(mailQueue.id, id))
    .run();
}

/**
 * Mail still unsent a while after it was queued: the work the sweeper keeps a job for. Younger
 * rows are still being sent by the process that queued them.
 */
export function listUnsentMailIds(queuedBefore: Date): string[] {
  return db()
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(and(isNull(mailQueue.sentAt), lt(mailQueue.createdAt, queuedBefore)))
    .all()
    .map((row) => row.id);
}
