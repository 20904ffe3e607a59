import type { PolicyKey } from '../../db/schema';
import { getPublicPolicy } from '~/models/policies.server';

/** The loader every policy page shares: its text, sanitized. */
export function policyLoader(key: PolicyKey) {
  return () => ({ html: getPublicPolicy(key) });
}
