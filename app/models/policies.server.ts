import { policies, POLICY_KEYS, type PolicyKey } from '../../db/schema';
import { db } from '~/utils/db.server';
import { DEFAULT_POLICIES } from './default-policies';

export type Policies = Record<PolicyKey, string>;

export function getPolicies(): Policies {
  const rows = db().select().from(policies).all();
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.html])) as Partial<Policies>;
  return Object.fromEntries(
    POLICY_KEYS.map((key) => [key, stored[key] ?? DEFAULT_POLICIES[key]]),
  ) as Policies;
}

export function savePolicy(key: PolicyKey, html: string, updatedBy: string | null) {
  db()
    .insert(policies)
    .values({ key, html, updatedBy })
    .onConflictDoUpdate({ target: policies.key, set: { html, updatedBy, updatedAt: new Date() } })
    .run();
}

/** Writes the default texts for any policy not stored yet; never overwrites an admin's edit. */
export function seedDefaultPolicies() {
  db()
    .insert(policies)
    .values(POLICY_KEYS.map((key) => ({ key, html: DEFAULT_POLICIES[key] })))
    .onConflictDoNothing()
    .run();
}
