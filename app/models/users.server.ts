import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { users, Plan, Role } from '../../db/schema';
import { database, first, tables, transaction } from '~/utils/database.server';
import { isAdminRole } from '~/domain/roles';
import { newId } from '~/utils/ids.server';
import { concurrencyLimit } from '~/utils/concurrency';

export const MIN_PASSWORD_LENGTH = 9;

export type User = typeof users.$inferSelect;
/** What may leave the server about a user: never the password hash. */
export type PublicUser = Pick<User, 'id' | 'email' | 'name' | 'plan' | 'role'>;

export function toPublicUser(user: User): PublicUser {
  return { id: user.id, email: user.email, name: user.name, plan: user.plan, role: user.role };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Hashing is CPU work on libuv's thread pool. At most one less than the cores run at once, so a
 * burst of sign-ins always leaves a core to the request thread and everybody else's pages.
 */
const hashing = concurrencyLimit(Math.max(1, os.availableParallelism() - 1));

/**
 * argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum), computed off the
 * event loop: a sign-in no longer holds it for ~300 ms as pure-JavaScript bcrypt did.
 */
export function hashPassword(password: string): Promise<string> {
  return hashing(() => argon2Hash(password));
}

/** Checks an argon2id hash. An older bcrypt hash never matches: see `isLegacyHash`. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (isLegacyHash(hash)) return Promise.resolve(false);
  return hashing(() => argon2Verify(hash, password));
}

/**
 * A bcrypt hash from before argon2id (ADR 0006), of an account that has not signed in since.
 * It is no longer checked (bcrypt is gone): its owner is mailed a reset link instead (ADR 0053).
 */
export function isLegacyHash(hash: string): boolean {
  return !hash.startsWith('$argon2');
}

export async function getUserByEmail(email: string): Promise<User | undefined> {
  const { users } = tables;
  // The unique index is on lower(email) on both databases, so at most one row matches.
  return first(
    database()
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, normalizeEmail(email))),
  );
}

export async function getUserById(userId: string): Promise<User | undefined> {
  const { users } = tables;
  return first(database().select().from(users).where(eq(users.id, userId)));
}

export async function getUserEmail(userId: string): Promise<string | undefined> {
  const { users } = tables;
  const row = await first(
    database().select({ email: users.email }).from(users).where(eq(users.id, userId)),
  );
  return row?.email;
}

export async function createUser(
  input: {
    email: string;
    name: string;
    password: string;
    plan?: Plan;
    role?: Role;
  },
  alongside?: (user: User) => Promise<void>,
): Promise<User> {
  const row = {
    id: newId(),
    email: normalizeEmail(input.email),
    name: input.name.trim(),
    passwordHash: await hashPassword(input.password),
    plan: input.plan ?? 'free',
    role: input.role ?? 'member',
  };
  // `alongside` writes what must exist with the account (its welcome mail) in one transaction:
  // database work only, since on PostgreSQL the transaction may run more than once.
  return transaction(async (tx) => {
    const { users } = tables;
    const [user] = await tx.insert(users).values(row).returning();
    await alongside?.(user!);
    return user!;
  });
}

export function isAdmin(user: Pick<User, 'role'>): boolean {
  return isAdminRole(user.role);
}
