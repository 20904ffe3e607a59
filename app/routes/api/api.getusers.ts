import { listUsers } from '~/models/admin.server';
import { API } from '~/api/contract.server';
import { adminListRoute, apiUser } from '~/api/admin-lists.server';

/** GET /api/getusers: members, newest first, paged. */
export const loader = adminListRoute(
  API.getusers,
  ['email', 'name', 'type', 'created'],
  (paging) => listUsers(paging),
  apiUser,
);
