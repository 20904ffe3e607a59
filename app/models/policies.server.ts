import { eq } from 'drizzle-orm';
import { policies, POLICY_KEYS, type PolicyKey } from '../../db/schema';
import { db } from '~/utils/db.server';
import { sanitizeHtml } from '~/utils/sanitize-html.server';
import { DEFAULT_POLICIES } from '~/domain/default-policies';

export type Policies = Record<PolicyKey, string>;

/** The stored texts as written (for the admin editors); defaults for any not stored. */
export function getPolicies(): Policies {
  const rows = db().select().from(policies).all();
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.html])) as Partial<Policies>;
  return Object.fromEntries(
    POLICY_KEYS.map((key) => [key, stored[key] ?? DEFAULT_POLICIES[key]]),
  ) as Policies;
}

/** One stored text as written, or its default. */
export function getPolicy(key: PolicyKey): string {
  const row = db().select().from(policies).where(eq(policies.key, key)).get();
  return row?.html ?? DEFAULT_POLICIES[key];
}

/**
 * What visitors and API clients get: every text sanitized on its way out, so
 * stored HTML (whoever wrote it) can never run script in a browser.
 */
export function getPublicPolicy(key: PolicyKey): string {
  return sanitizeHtml(getPolicy(key));
}

export function getPublicPolicies(): Policies {
  const all = getPolicies();
  return Object.fromEntries(POLICY_KEYS.map((key) => [key, sanitizeHtml(all[key])])) as Policies;
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
