import type { ActionFunctionArgs } from '@remix-run/node';
import { sendCertificate } from '~/services/course-completion.server';
import { requireApiUser } from '~/utils/auth.server';
import { requireValidBody } from '~/utils/validation.server';
import { apiError, failureJson, guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/**
 * POST /api/sendcertificate {courseId?}: emails the certificate of the caller's own finished
 * course (the one named, else the one finished last), rendered on the server, to the caller's
 * own address. Any html or email a client sends is ignored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return guardApi('sendcertificate', async () => {
    const user = await requireApiUser(request, context);
    const { courseId } = await requireValidBody(request, API.sendcertificate.body);
    const result = await sendCertificate(user.id, courseId);
    if (!result.ok) return failureJson(result);
    if (!result.value.sent)
      return apiError(502, 'The email could not be sent. Please try again later.', {
        code: 'service_unavailable',
      });
    return apiJson(API.sendcertificate, 200, {
      success: true,
      message: 'Certificate sent to your email',
    });
  });
}
