import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { seedDefaultPolicies } from '~/models/policies.server';
import { isUniqueEmailViolation } from '~/models/user-accounts.server';
import { createUser, getUserByEmail } from '~/models/users.server';
import { db } from '~/utils/db.server';
import { env } from '~/utils/env.server';

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

/** Creates the main admin once and the default policy texts; safe to run at every start. */
export async function seed(): Promise<SeedResult> {
  seedDefaultPolicies();
  const { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_NAME } = env();
  // The main admin may have changed their email since the first start: one main admin only.
  const mainAdmin = db().select().from(users).where(eq(users.role, 'main_admin')).get();
  if (mainAdmin) return { adminEmail: mainAdmin.email };
  // Never promote an account seeding did not create: whoever signed up first with ADMIN_EMAIL
  // (e.g. while the web ran before its first seed) would own the product with their password.
  if (getUserByEmail(ADMIN_EMAIL)) throw new SeedConflict(ADMIN_EMAIL);
  const generatedPassword = ADMIN_PASSWORD ? undefined : randomBytes(12).toString('base64url');
  try {
    const admin = await createUser({
      email: ADMIN_EMAIL,
      name: ADMIN_NAME,
      password: ADMIN_PASSWORD ?? generatedPassword!,
      role: 'main_admin',
    });
    return { adminEmail: admin.email, generatedPassword };
  } catch (error) {
    // A sign-up that took the address while the password was being hashed: the same conflict.
    if (isUniqueEmailViolation(error)) throw new SeedConflict(ADMIN_EMAIL);
    throw error;
  }
}
