import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { sendCertificate } from '~/services/course-completion.server';
import { requireApiUser } from '~/utils/auth.server';
import { requiredText, requireValidBody } from '~/utils/validation.server';
import { failureJson, guardApi } from '~/utils/responses.server';

// Only the course id is read: any html or email a client sends is ignored.
const schema = z.object({ courseId: requiredText(100) });

/**
 * POST /api/sendcertificate {courseId}: emails the certificate of the caller's
 * own finished course, rendered on the server, to the caller's own address.
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('sendcertificate', async () => {
    const user = await requireApiUser(request);
    const { courseId } = await requireValidBody(request, schema);
    const result = await sendCertificate(user.id, courseId);
    if (!result.ok) return failureJson(result);
    if (!result.value.sent)
      return Response.json(
        { success: false, message: 'The email could not be sent. Please try again later.' },
        { status: 502 },
      );
    return Response.json({ success: true, message: 'Certificate sent to your email' });
  });
}

export function loader() {
  return Response.json(
    { success: false, message: 'Method not allowed' },
    { status: 405, headers: { Allow: 'POST' } },
  );
}
