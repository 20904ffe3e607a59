import { desc, eq } from 'drizzle-orm';
import { outboxEmails } from '../../db/schema';
import { db } from '~/utils/db.server';

export function listOutbox(limit = 200) {
  return db()
    .select({
      id: outboxEmails.id,
      to: outboxEmails.to,
      subject: outboxEmails.subject,
      createdAt: outboxEmails.createdAt,
    })
    .from(outboxEmails)
    .orderBy(desc(outboxEmails.id))
    .limit(limit)
    .all();
}

export function getOutboxEmail(id: number) {
  return db().select().from(outboxEmails).where(eq(outboxEmails.id, id)).get();
}

/** Demo mode's mail: kept for admins to read instead of being delivered. */
export function keepInOutbox(email: typeof outboxEmails.$inferInsert) {
  db().insert(outboxEmails).values(email).run();
}
