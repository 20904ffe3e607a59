import { desc, eq } from 'drizzle-orm';
import type { outboxEmails } from '../../db/schema';
import { database, first, tables } from '~/utils/database.server';

export async function listOutbox(limit = 200) {
  const { outboxEmails } = tables;
  return database()
    .select({
      id: outboxEmails.id,
      to: outboxEmails.to,
      subject: outboxEmails.subject,
      createdAt: outboxEmails.createdAt,
    })
    .from(outboxEmails)
    .orderBy(desc(outboxEmails.id))
    .limit(limit);
}

async function getOutboxEmail(id: number) {
  const { outboxEmails } = tables;
  return first(database().select().from(outboxEmails).where(eq(outboxEmails.id, id)));
}

/** The secret part of a link that acts for its recipient (a password reset, an email change). */
const SECRET_LINK = /(\/(?:reset-password|verify-email)\/)[A-Za-z0-9_-]+/g;
const MASKED_SECRET = '•••';

/**
 * An outbox email as the admin `viewerEmail` may read it: a reset or email-change link in someone
 * else's mail would let the admin take over that account (the main admin's included), so it is
 * masked.
 */
export async function getOutboxEmailFor(id: number, viewerEmail: string) {
  const email = await getOutboxEmail(id);
  if (!email || email.to.toLowerCase() === viewerEmail.toLowerCase()) return email;
  const mask = (value: string | null) => value?.replace(SECRET_LINK, `$1${MASKED_SECRET}`) ?? null;
  return { ...email, html: mask(email.html), text: mask(email.text) };
}

/** Demo mode's mail: kept for admins to read instead of being delivered. */
export async function keepInOutbox(email: typeof outboxEmails.$inferInsert): Promise<void> {
  const { outboxEmails } = tables;
  await database().insert(outboxEmails).values(email);
}
