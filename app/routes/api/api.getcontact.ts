import { listContacts } from '~/models/admin.server';
import { API } from '~/api/contract.server';
import { adminListRoute } from '~/api/admin-lists.server';

/** GET /api/getcontact: contact messages, newest first, paged. */
export const loader = adminListRoute(API.getcontact, ['email', 'created'], listContacts, (row) => ({
  _id: row.id,
  fname: row.firstName,
  lname: row.lastName,
  email: row.email,
  phone: row.phone,
  msg: row.message,
}));
