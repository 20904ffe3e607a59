import type { Role } from '../../db/schema';

/** Admins and the main admin; shared by the server's checks and the header's Admin link. */
export function isAdminRole(role: Role): boolean {
  return role === 'admin' || role === 'main_admin';
}

/** The install's owner: the only one who changes its settings (plans, prices: ADR 0055). */
export function isMainAdminRole(role: Role): boolean {
  return role === 'main_admin';
}
