import type { LoaderFunctionArgs } from '@remix-run/node';
import { getOutlineForUser, outlineStatus } from '~/models/outlines.server';
import { withJobService } from '~/services/course-generation.server';
import { requireApiUser } from '~/utils/auth.server';
import { readWhenChanged, statusJson } from '~/utils/long-poll.server';

/** GET: the outline job's state (queued, running, retrying + attempts, done + topics). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const outlineId = params.outlineId ?? '';
  const status = await readWhenChanged(
    request,
    async () => {
      const outline = await getOutlineForUser(outlineId, user.id);
      return outline ? withJobService(await outlineStatus(outline)) : undefined;
    },
    { key: `outline:${outlineId}`, memberId: user.id },
  );
  if (!status) return statusJson({ success: false, message: 'Not Found' }, 404);
  return statusJson(status);
}
