import { listCourses } from '~/models/admin.server';
import { adminListRoute } from '../admin-api.server';

/** GET /api/getcourses: every member's courses (no content), newest first, paged. */
export const loader = adminListRoute(
  'getcourses',
  ['title', 'type', 'created'],
  listCourses,
  (row) => ({
    _id: row.id,
    mainTopic: row.title,
    type: row.type,
    user: row.userId,
    date: row.createdAt.toISOString(),
  }),
);
