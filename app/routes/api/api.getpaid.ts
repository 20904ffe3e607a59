import { listUsers } from '~/models/admin.server';
import { API } from '~/api/contract.server';
import { adminListRoute, apiUser } from '~/api/admin-lists.server';

/** GET /api/getpaid: members on a paid plan, paged. */
export const loader = adminListRoute(
  API.getpaid,
  ['email', 'name', 'type', 'created'],
  (paging) => listUsers(paging, { paidOnly: true }),
  apiUser,
);
