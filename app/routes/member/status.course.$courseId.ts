import type { LoaderFunctionArgs } from '@remix-run/node';
import { courseStatus, getCourseForUser } from '~/models/courses.server';
import { withJobService } from '~/services/course-generation.server';
import { requireApiUser } from '~/utils/auth.server';
import { readWhenChanged, statusJson } from '~/utils/long-poll.server';

/** GET: every lesson's generation state (queued, running, retrying + attempts, done) and progress. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const course = await getCourseForUser(params.courseId ?? '', user.id);
  if (!course) return statusJson({ success: false, message: 'Not Found' }, 404);
  const status = await readWhenChanged(
    request,
    async () => withJobService(await courseStatus(course.id)),
    {
      key: `course:${course.id}`,
      memberId: user.id,
    },
  );
  return statusJson(status);
}
