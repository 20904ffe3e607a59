import { listCourses } from '~/models/admin.server';
import { courseRecord } from '~/services/course-content.server';
import { API } from '~/api/contract.server';
import { adminListRoute } from '~/api/admin-lists.server';

/** GET /api/getcourses: every member's courses as course records without content, paged. */
export const loader = adminListRoute(
  API.getcourses,
  ['title', 'type', 'created'],
  listCourses,
  (row) =>
    courseRecord({
      id: row.id,
      userId: row.userId,
      mainTopic: row.title,
      type: row.type,
      photoUrl: row.photoUrl,
      createdAt: row.createdAt,
      completedAt: row.completedAt,
      language: row.language,
    }),
);
