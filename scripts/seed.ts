import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { seedDefaultPolicies } from '~/models/policies.server';
import { createUser, getUserByEmail } from '~/models/users.server';
import { db } from '~/utils/db.server';
import { env } from '~/utils/env.server';

export interface SeedResult {
  adminEmail: string;
  /** Set only when this run created the admin with a generated password. */
  generatedPassword?: string;
}

/** Creates the main admin once and the default policy texts; safe to run at every start. */
export async function seed(): Promise<SeedResult> {
  seedDefaultPolicies();
  const { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_NAME } = env();
  // The main admin may have changed their email since the first start: one main admin only.
  const mainAdmin = db().select().from(users).where(eq(users.role, 'main_admin')).get();
  if (mainAdmin) return { adminEmail: mainAdmin.email };
  const existing = getUserByEmail(ADMIN_EMAIL);
  if (existing) {
    db().update(users).set({ role: 'main_admin' }).where(eq(users.id, existing.id)).run();
    return { adminEmail: existing.email };
  }
  const generatedPassword = ADMIN_PASSWORD ? undefined : randomBytes(12).toString('base64url');
  const admin = await createUser({
    email: ADMIN_EMAIL,
    name: ADMIN_NAME,
    password: ADMIN_PASSWORD ?? generatedPassword!,
    role: 'main_admin',
  });
  return { adminEmail: admin.email, generatedPassword };
}
