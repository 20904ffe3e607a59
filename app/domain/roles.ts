import type { Role } from '../../db/schema';

/** Admins and the main admin; shared by the server's checks and the header's Admin link. */
export function isAdminRole(role: Role): boolean {
  return role === 'admin' || role === 'main_admin';
}
