import { and, eq, isNull, lt } from 'drizzle-orm';
import type { mailQueue } from '../../db/schema';
import { database, first, tables } from '~/utils/database.server';
import { newId } from '~/utils/ids.server';

export type QueuedMail = typeof mailQueue.$inferSelect;

/** Records a mail that must be sent; call it inside the transaction of the change it reports. */
export async function queueMail(mail: {
  to: string;
  subject: string;
  html: string;
  text?: string;
}): Promise<string> {
  const { mailQueue } = tables;
  const id = newId();
  await database()
    .insert(mailQueue)
    .values({ id, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text ?? null });
  return id;
}

export async function getQueuedMail(id: string): Promise<QueuedMail | undefined> {
  const { mailQueue } = tables;
  return first(database().select().from(mailQueue).where(eq(mailQueue.id, id)));
}

/** Sent (or, with a note, given up): the body (a reset link, say) is cleared, the row stays. */
export async function markMailSent(id: string, note: string | null = null): Promise<void> {
  const { mailQueue } = tables;
  await database()
    .update(mailQueue)
    .set({ sentAt: new Date(), html: '', text: null, lastError: note })
    .where(eq(mailQueue.id, id));
}

export async function recordMailFailure(id: string, attempts: number, message: string) {
  const { mailQueue } = tables;
  await database()
    .update(mailQueue)
    .set({ attempts, lastError: message.slice(0, 500) })
    .where(eq(mailQueue.id, id));
}

/**
 * Mail still unsent a while after it was queued: the work the sweeper keeps a job for. Younger
 * rows are still being sent by the process that queued them.
 */
export async function listUnsentMailIds(queuedBefore: Date): Promise<string[]> {
  const { mailQueue } = tables;
  const rows = await database()
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(and(isNull(mailQueue.sentAt), lt(mailQueue.createdAt, queuedBefore)));
  return rows.map((row) => row.id);
}
