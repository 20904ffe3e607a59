import { and, eq, ne, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
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

/** Changes a member's own name, email and (when given) password hash. */
export function updateAccount(
  userId: string,
  changes: { name: string; email: string; passwordHash?: string },
): User | undefined {
  return db()
    .update(users)
    .set({
      name: changes.name.trim(),
      email: normalizeEmail(changes.email),
      ...(changes.passwordHash ? { passwordHash: changes.passwordHash } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning()
    .get();
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
