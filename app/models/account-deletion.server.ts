import { eq, inArray, sql } from 'drizzle-orm';
import { database, tables, transaction } from '~/utils/database.server';
import type { DeletedCourse } from './courses.server';

/** What an admin audit line says instead of a deleted member's email. */
const DELETED_ACCOUNT_LABEL = 'a deleted account';

/**
 * Deletes every row of a member (issue 38, ADR 0054), in one transaction; `beforeCommit` runs
 * last inside it (the confirmation email is queued there, so it is sent only if the deletion
 * happened). The database's cascades from `users.id` take sessions, API tokens, reset and email
 * change tokens, outlines and their documents, courses and everything of them, subscriptions and
 * receipts, notes, attempts, flashcard schedules and reviews, tutor messages. What points at the
 * member only by email, or holds it in text, is removed or rewritten here: contact messages,
 * mail to the address, the provider messages of their subscriptions, admin audit lines. Receipts
 * are first copied to `kept_receipts` without anything of the member. Returns what of the
 * courses may still have jobs in Redis.
 */
export async function deleteAccountRows(
  user: { id: string; email: string },
  beforeCommit: () => Promise<unknown>,
  now = new Date(),
): Promise<DeletedCourse[]> {
  const email = user.email.toLowerCase();
  return transaction(async (tx) => {
    const {
      adminAudit,
      contacts,
      courses,
      keptReceipts,
      lessons,
      mailQueue,
      outboxEmails,
      paymentEvents,
      quizzes,
      receipts,
      subscriptions,
      users,
    } = tables;
    const courseIds = (
      await tx.select({ id: courses.id }).from(courses).where(eq(courses.userId, user.id))
    ).map((row) => row.id);
    const deleted: DeletedCourse[] = courseIds.map((id) => ({ id, lessonIds: [], quizIds: [] }));
    const byId = new Map(deleted.map((course) => [course.id, course]));
    if (courseIds.length > 0) {
      for (const row of await tx
        .select({ id: lessons.id, courseId: lessons.courseId })
        .from(lessons)
        .where(inArray(lessons.courseId, courseIds)))
        byId.get(row.courseId)!.lessonIds.push(row.id);
      for (const row of await tx
        .select({ id: quizzes.id, courseId: quizzes.courseId })
        .from(quizzes)
        .where(inArray(quizzes.courseId, courseIds)))
        byId.get(row.courseId)!.quizIds.push(row.id);
    }

    const paid = await tx
      .select({
        number: receipts.number,
        provider: subscriptions.provider,
        providerPaymentKey: receipts.providerPaymentKey,
        plan: receipts.plan,
        amountCents: receipts.amountCents,
        currency: receipts.currency,
        paidAt: receipts.paidAt,
        customer: subscriptions.customer,
      })
      .from(receipts)
      .innerJoin(subscriptions, eq(subscriptions.id, receipts.subscriptionId))
      .where(eq(receipts.userId, user.id));
    if (paid.length > 0)
      await tx.insert(keptReceipts).values(
        paid.map(({ customer, ...receipt }) => ({
          ...receipt,
          country: customer?.country ?? null,
          accountDeletedAt: now,
        })),
      );
    const subscribed = await tx
      .select({ id: subscriptions.id, customer: subscriptions.customer })
      .from(subscriptions)
      .where(eq(subscriptions.userId, user.id));
    const subscriptionIds = subscribed.map((row) => row.id);
    // Receipts were mailed to the address typed at checkout, which may not be the account's.
    const addresses = [
      ...new Set([
        email,
        ...subscribed.flatMap((row) =>
          row.customer?.email ? [row.customer.email.toLowerCase()] : [],
        ),
      ]),
    ];
    // The providers' messages about them carry the subscriber's name, email and address.
    if (subscriptionIds.length > 0)
      await tx.delete(paymentEvents).where(inArray(paymentEvents.subscriptionId, subscriptionIds));

    for (const address of addresses) {
      await tx.delete(contacts).where(sql`lower(${contacts.email}) = ${address}`);
      await tx.delete(mailQueue).where(sql`lower(${mailQueue.to}) = ${address}`);
      await tx.delete(outboxEmails).where(sql`lower(${outboxEmails.to}) = ${address}`);
    }
    await tx
      .update(adminAudit)
      .set({ actorEmail: DELETED_ACCOUNT_LABEL })
      .where(sql`lower(${adminAudit.actorEmail}) = ${email}`);
    await tx
      .update(adminAudit)
      .set({
        detail: sql`replace(lower(${adminAudit.detail}), ${email}, ${DELETED_ACCOUNT_LABEL})`,
      })
      .where(sql`lower(${adminAudit.detail}) like ${`%${email}%`}`);
    await tx.delete(users).where(eq(users.id, user.id));
    await beforeCommit();
    return deleted;
  });
}

/** How many main admins there are: the last one may not delete itself. */
export async function countMainAdmins(): Promise<number> {
  const { users } = tables;
  const rows = await database()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, 'main_admin'));
  return rows.length;
}
