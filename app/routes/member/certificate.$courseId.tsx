import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigate, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { z } from 'zod';
import { certificatePath } from '~/components/certificate-link';
import { courseProgress, getCompletion } from '~/models/completions.server';
import { finishCourse, sendCertificate } from '~/services/course-completion.server';
import { getCourseForUser } from '~/models/courses.server';
import { languageAttributes } from '~/domain/languages';
import { formatCertificateDate } from '~/services/certificate/template.server';
import certificateStyles from '~/styles/certificate.css?url';
import { requireUser } from '~/utils/auth.server';
import { CERTIFICATE_FILENAME, CERTIFICATE_HEIGHT, CERTIFICATE_WIDTH } from '~/utils/certificate';
import { toastHeader } from '~/utils/toast.server';
import { parseWith, readBody } from '~/utils/validation.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: certificateStyles }];

export const meta: MetaFunction = ({ matches }) => [
  { title: `Certificate | ${siteName(matches)}` },
  { name: 'robots', content: 'noindex' },
];

function notFound(): never {
  throw new Response('Not Found', { status: 404 });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const courseId = params.courseId ?? '';
  const course = await getCourseForUser(courseId, user.id);
  if (!course) notFound();
  const completion = await getCompletion(courseId);
  if (!completion) {
    // At 100% the page finishes the course (its own POST); before that, back to studying.
    if ((await courseProgress(courseId)).percent < 100) throw redirect(`/course/${courseId}`);
    return { state: 'ready' as const, courseId, courseTitle: course.mainTopic };
  }
  const image = `${certificatePath(courseId)}/certificate.png`;
  return {
    state: 'finished' as const,
    courseId,
    certificateId: completion.certificateId,
    memberName: completion.memberName,
    courseTitle: completion.courseTitle,
    completedAt: completion.completedAt.toISOString(),
    date: formatCertificateDate(completion.completedAt),
    imageUrl: image,
    downloadUrl: `${image}?download=1`,
    verifyPath: `/verify/${completion.certificateId}`,
    language: course.language,
  };
}

const intentSchema = z.object({ intent: z.enum(['finish', 'email']).default('finish') });

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const courseId = params.courseId ?? '';
  const parsed = parseWith(intentSchema, await readBody(request));
  const intent = parsed.ok ? parsed.value.intent : 'finish';
  const here = certificatePath(courseId);

  if (intent === 'email') {
    const result = await sendCertificate(user.id, courseId);
    if (!result.ok) {
      if (result.status === 404) notFound();
      if (result.status !== 429) return redirect(here);
      const toast = await toastHeader({ type: 'error', message: result.message });
      return redirect(here, { headers: { 'Set-Cookie': toast } });
    }
    return redirect(here, {
      headers: {
        'Set-Cookie': await toastHeader(
          result.value.sent
            ? { type: 'success', message: 'Certificate sent to your email' }
            : { type: 'error', message: 'The email could not be sent. Please try again later.' },
        ),
      },
    });
  }

  const result = await finishCourse(user.id, courseId);
  if (!result.ok) {
    if (result.status === 404) notFound();
    return redirect(`/course/${courseId}`);
  }
  return redirect(here);
}

export default function CertificatePage() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'ready')
    return <FinishingCourse courseId={data.courseId} courseTitle={data.courseTitle} />;
  return (
    <section className="page certificate-page">
      <header className="certificate-intro">
        <h1>Congratulations!</h1>
        <p className="lead" data-testid="congratulations">
          {data.memberName}, you have completed{' '}
          <strong {...languageAttributes(data.language)}>{data.courseTitle}</strong> on{' '}
          <time dateTime={data.completedAt}>{data.date}</time>. Download your certificate below.
        </p>
        <div className="actions">
          <a
            href={data.downloadUrl}
            download={CERTIFICATE_FILENAME}
            className="button primary"
            data-testid="download-certificate"
          >
            Download
          </a>
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value="email" />
            <button type="submit" className="button">
              Email Certificate
            </button>
          </Form>
          <Link to={`/course/${data.courseId}`} className="button">
            Back to course
          </Link>
        </div>
      </header>
      <figure className="certificate-figure">
        <img
          src={data.imageUrl}
          width={CERTIFICATE_WIDTH}
          height={CERTIFICATE_HEIGHT}
          alt={`Certificate of completion: ${data.memberName}, ${data.courseTitle}, ${data.date}`}
          data-testid="certificate-image"
        />
        <figcaption className="muted">
          Certificate ID <code data-testid="certificate-id">{data.certificateId}</code>. Anyone can
          check it at <Link to={data.verifyPath}>{data.verifyPath}</Link>.
        </figcaption>
      </figure>
    </section>
  );
}

/**
 * A course at 100% that is not finished yet. With JavaScript the finish call is
 * posted at once and retried (quietly, with a growing pause) until it works,
 * then the certificate shows; without it, the button posts the page's action.
 */
function FinishingCourse({ courseId, courseTitle }: { courseId: string; courseTitle: string }) {
  const { revalidate } = useRevalidator();
  const navigate = useNavigate();
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      let pause = 1_000;
      while (!cancelled) {
        try {
          const response = await fetch('/api/finish', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
            body: JSON.stringify({ courseId }),
          });
          if (cancelled) return;
          if (response.status === 409) return navigate(`/course/${courseId}`);
          // Done, or signed out / not found: the loader decides what to show.
          if (response.ok || (response.status < 500 && response.status !== 429))
            return revalidate();
        } catch {
          // Offline or the server restarting: try again below.
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 15_000);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [courseId, navigate, revalidate]);

  return (
    <section className="page narrow center certificate-page" aria-busy="true">
      <h1>Congratulations!</h1>
      <p className="lead">
        You have finished every lesson of <strong>{courseTitle}</strong>. Preparing your
        certificate…
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="finish" />
        <button type="submit" className="button primary">
          Get Certificate
        </button>
      </Form>
    </section>
  );
}
