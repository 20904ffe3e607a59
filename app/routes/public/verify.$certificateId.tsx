import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { getCertificateByPublicId } from '~/models/completions.server';
import { formatCertificateDate } from '~/services/certificate/template.server';
import certificateStyles from '~/styles/certificate.css?url';
import { brand } from '~/services/brand.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: certificateStyles }];

export const meta: MetaFunction = ({ matches }) => [
  { title: `Certificate verification | ${siteName(matches)}` },
  { name: 'robots', content: 'noindex' },
];

/** Public: confirms a certificate's name, course and date, and nothing else about the member. */
export async function loader({ params }: LoaderFunctionArgs) {
  const certificate = await getCertificateByPublicId(params.certificateId ?? '');
  if (!certificate) throw new Response('Not Found', { status: 404 });
  return {
    certificateId: certificate.certificateId,
    memberName: certificate.memberName,
    courseTitle: certificate.courseTitle,
    completedAt: certificate.completedAt.toISOString(),
    date: formatCertificateDate(certificate.completedAt),
    issuer: (await brand()).name,
  };
}

export default function VerifyCertificate() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="page narrow verify-page">
      <p className="verify-badge" aria-hidden="true">
        ✓
      </p>
      <h1>Certificate verified</h1>
      <p>
        This certificate was issued by {data.issuer} and is genuine. It confirms that the person
        named below completed the course on the date shown.
      </p>
      <dl className="facts verify-facts" data-testid="verified-certificate">
        <dt>Name</dt>
        <dd data-testid="verified-name">{data.memberName}</dd>
        <dt>Course</dt>
        <dd data-testid="verified-course">{data.courseTitle}</dd>
        <dt>Completed on</dt>
        <dd data-testid="verified-date">
          <time dateTime={data.completedAt}>{data.date}</time>
        </dd>
        <dt>Certificate ID</dt>
        <dd>
          <code>{data.certificateId}</code>
        </dd>
      </dl>
    </section>
  );
}
