import { and, eq, ne, sql } from 'drizzle-orm';
import { revokeAccountAccess } from './account-access.server';
import { normalizeEmail, type User } from './users.server';
import { database, first, tables } from '~/utils/database.server';

/** True when another account already uses this email (case-insensitive). */
export async function isEmailTakenByOther(email: string, userId: string): Promise<boolean> {
  const { users } = tables;
  const other = await first(
    database()
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, normalizeEmail(email)), ne(users.id, userId)))
      .limit(1),
  );
  return Boolean(other);
}

/**
 * Changes a member's own name and, when given, password hash; a new password also revokes every
 * session, reset link and pending email change (revokeAccountAccess). The email changes only
 * through a confirmed link (email-changes). Call it inside a transaction.
 */
export async function updateAccount(
  userId: string,
  changes: { name: string; passwordHash?: string },
): Promise<User | undefined> {
  const { users } = tables;
  const now = new Date();
  const [user] = await database()
    .update(users)
    .set({
      name: changes.name.trim(),
      ...(changes.passwordHash ? { passwordHash: changes.passwordHash } : {}),
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning();
  if (user && changes.passwordHash) await revokeAccountAccess(userId, now);
  return user;
}
