import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { POLICY_KEYS } from '../db/enums';
import { DEFAULT_POLICIES } from '~/domain/default-policies';
import { hashPassword, normalizeEmail } from '~/models/users.server';
import { database, first, isUniqueViolation, tables } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { newId } from '~/utils/ids.server';
export interface SeedResult {
  adminEmail: string;
  /** Set only when this run created the admin with a generated password. */
  generatedPassword?: string;
}

export class SeedConflict extends Error {
  constructor(email: string) {
    super(
      `An account with ADMIN_EMAIL (${email}) already exists, and seeding did not create it, ` +
        'so it will not be made main admin. Set ADMIN_EMAIL to an address no one has signed up ' +
        'with (or delete that account) and start again.',
    );
    this.name = 'SeedConflict';
  }
}

/**
 * Creates the main admin once and the default policy texts; safe to run at every start. Written
 * against the data layer of both databases (ADR 0039): the start seeds PostgreSQL with it too.
 */
export async function seed(): Promise<SeedResult> {
  const { users, policies } = tables;
  // The default texts of the policies not stored yet; never overwrites an admin's edit.
  await database()
    .insert(policies)
    .values(POLICY_KEYS.map((key) => ({ key, html: DEFAULT_POLICIES[key] })))
    .onConflictDoNothing();
  const { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_NAME } = env();
  // The main admin may have changed their email since the first start: one main admin only.
  const mainAdmin = await first(
    database().select().from(users).where(eq(users.role, 'main_admin')).limit(1),
  );
  if (mainAdmin) return { adminEmail: mainAdmin.email };
  // Never promote an account seeding did not create: whoever signed up first with ADMIN_EMAIL
  // (e.g. while the web ran before its first seed) would own the product with their password.
  const email = normalizeEmail(ADMIN_EMAIL);
  const taken = await first(
    database()
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email)),
  );
  if (taken) throw new SeedConflict(ADMIN_EMAIL);
  const generatedPassword = ADMIN_PASSWORD ? undefined : randomBytes(12).toString('base64url');
  try {
    const [admin] = await database()
      .insert(users)
      .values({
        id: newId(),
        email,
        name: ADMIN_NAME.trim(),
        passwordHash: await hashPassword(ADMIN_PASSWORD ?? generatedPassword!),
        role: 'main_admin',
      })
      .returning({ email: users.email });
    return { adminEmail: admin!.email, generatedPassword };
  } catch (error) {
    // A sign-up that took the address while the password was being hashed: the same conflict.
    if (isUniqueViolation(error)) throw new SeedConflict(ADMIN_EMAIL);
    throw error;
  }
}
