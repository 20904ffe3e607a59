import { and, eq, ne, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import { revokeAccountAccess } from './account-access.server';
import { normalizeEmail, type User } from './users.server';
import { db } from '~/utils/db.server';

/** True when another account already uses this email (case-insensitive). */
export function isEmailTakenByOther(email: string, userId: string): boolean {
  return Boolean(
    db()
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, normalizeEmail(email)), ne(users.id, userId)))
      .get(),
  );
}

/**
 * Changes a member's own name and, when given, password hash; a new password also revokes every
 * session, reset link and pending email change (revokeAccountAccess). The email changes only
 * through a confirmed link (email-changes). Call it inside a write transaction.
 */
export function updateAccount(
  userId: string,
  changes: { name: string; passwordHash?: string },
): User | undefined {
  const now = new Date();
  const user = db()
    .update(users)
    .set({
      name: changes.name.trim(),
      ...(changes.passwordHash ? { passwordHash: changes.passwordHash } : {}),
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning()
    .get();
  if (user && changes.passwordHash) revokeAccountAccess(userId, now);
  return user;
}

/** SQLite's answer when the case-insensitive email index refuses a duplicate. */
export function isUniqueEmailViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.includes('users')
  );
}
