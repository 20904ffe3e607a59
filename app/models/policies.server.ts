import { eq } from 'drizzle-orm';
import { POLICY_KEYS } from '../../db/enums';
import type { PolicyKey } from '../../db/schema';
import { database, first, tables } from '~/utils/database.server';
import { sanitizeHtml } from '~/utils/sanitize-html.server';
import { DEFAULT_POLICIES } from '~/domain/default-policies';

export type Policies = Record<PolicyKey, string>;

/** The stored texts as written (for the admin editors); defaults for any not stored. */
export async function getPolicies(): Promise<Policies> {
  const { policies } = tables;
  const rows = await database().select().from(policies);
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.html])) as Partial<Policies>;
  return Object.fromEntries(
    POLICY_KEYS.map((key) => [key, stored[key] ?? DEFAULT_POLICIES[key]]),
  ) as Policies;
}

/** One stored text as written, or its default. */
export async function getPolicy(key: PolicyKey): Promise<string> {
  const { policies } = tables;
  const row = await first(database().select().from(policies).where(eq(policies.key, key)));
  return row?.html ?? DEFAULT_POLICIES[key];
}

/**
 * What visitors and API clients get: every text sanitized on its way out, so
 * stored HTML (whoever wrote it) can never run script in a browser.
 */
export async function getPublicPolicy(key: PolicyKey): Promise<string> {
  return sanitizeHtml(await getPolicy(key));
}

export async function getPublicPolicies(): Promise<Policies> {
  const all = await getPolicies();
  return Object.fromEntries(POLICY_KEYS.map((key) => [key, sanitizeHtml(all[key])])) as Policies;
}

export async function savePolicy(key: PolicyKey, html: string, updatedBy: string | null) {
  const { policies } = tables;
  await database()
    .insert(policies)
    .values({ key, html, updatedBy })
    .onConflictDoUpdate({ target: policies.key, set: { html, updatedBy, updatedAt: new Date() } });
}
