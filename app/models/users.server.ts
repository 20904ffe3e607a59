import bcrypt from 'bcryptjs';
import { eq, sql } from 'drizzle-orm';
import { users, type Plan, type Role } from '../../db/schema';
import { db, writeTransaction } from '~/utils/db.server';
import { isAdminRole } from '~/domain/roles';
import { newId } from '~/utils/ids.server';

export const MIN_PASSWORD_LENGTH = 9;
const BCRYPT_COST = 12;

export type User = typeof users.$inferSelect;
/** What may leave the server about a user: never the password hash. */
export type PublicUser = Pick<User, 'id' | 'email' | 'name' | 'plan' | 'role'>;

export function toPublicUser(user: User): PublicUser {
  return { id: user.id, email: user.email, name: user.name, plan: user.plan, role: user.role };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

export function getUserByEmail(email: string): User | undefined {
  return db()
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, normalizeEmail(email)))
    .get();
}

export function getUserById(userId: string): User | undefined {
  return db().select().from(users).where(eq(users.id, userId)).get();
}

export function getUserEmail(userId: string): string | undefined {
  return db().select({ email: users.email }).from(users).where(eq(users.id, userId)).get()?.email;
}

export async function createUser(
  input: {
    email: string;
    name: string;
    password: string;
    plan?: Plan;
    role?: Role;
  },
  alongside?: (user: User) => void,
): Promise<User> {
  const row = {
    id: newId(),
    email: normalizeEmail(input.email),
    name: input.name.trim(),
    passwordHash: await hashPassword(input.password),
    plan: input.plan ?? 'free',
    role: input.role ?? 'member',
  };
  // `alongside` writes what must exist with the account (its welcome mail) in one transaction.
  return writeTransaction((tx) => {
    const user = tx.insert(users).values(row).returning().get();
    alongside?.(user);
    return user;
  });
}

export function isAdmin(user: Pick<User, 'role'>): boolean {
  return isAdminRole(user.role);
}
