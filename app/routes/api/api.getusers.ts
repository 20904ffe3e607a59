import { listUsers } from '~/models/admin.server';
import { adminListRoute, apiUser } from '../admin-api.server';

/** GET /api/getusers: members, newest first, paged. */
export const loader = adminListRoute(
  'getusers',
  ['email', 'name', 'type', 'created'],
  (paging) => listUsers(paging),
  apiUser,
);
