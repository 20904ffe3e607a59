import type { LoaderFunctionArgs } from '@remix-run/node';
import { getCompletion } from '~/models/completions.server';
import { toCertificateData } from '~/services/course-completion.server';
import { getCourseForUser } from '~/models/courses.server';
import { CERTIFICATE_FILENAME } from '~/utils/certificate';
import { certificatePng } from '~/services/certificate/png.server';
import { requireUser } from '~/utils/auth.server';

/**
 * The certificate image: the page shows it, `?download=1` saves it as
 * certificate.png. Owner only; a course that is not finished has none.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const courseId = params.courseId ?? '';
  const completion = (await getCourseForUser(courseId, user.id))
    ? await getCompletion(courseId)
    : undefined;
  if (!completion) throw new Response('Not Found', { status: 404 });
  const png = await certificatePng(toCertificateData(completion));
  const download = new URL(request.url).searchParams.has('download');
  return new Response(new Uint8Array(png), {
    headers: {
      'Content-Type': 'image/png',
      'Content-Length': String(png.length),
      'Content-Disposition': `${download ? 'attachment' : 'inline'}; filename="${CERTIFICATE_FILENAME}"`,
      'Cache-Control': 'private, max-age=3600',
    },
  });
}
