import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { getOutboxEmailFor } from '~/models/outbox.server';
import { requireAdmin } from '~/utils/auth.server';
import { siteName } from '~/utils/meta';

export const meta: MetaFunction = ({ matches }) => [{ title: `Email | ${siteName(matches)}` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const id = Number(params.id);
  const email = Number.isInteger(id) ? await getOutboxEmailFor(id, admin.email) : undefined;
  if (!email) throw new Response('Not Found', { status: 404 });
  return {
    id: email.id,
    to: email.to,
    from: email.from,
    subject: email.subject,
    html: email.html ?? '',
    text: email.text,
    createdAt: email.createdAt.toISOString(),
    attachments: email.attachments.map((a) => ({
      filename: a.filename,
      href: `data:${a.contentType};base64,${a.base64}`,
    })),
  };
}

export default function OutboxEmail() {
  const email = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <p>
        <Link to="/admin/outbox">Back to the outbox</Link>
      </p>
      <h1 data-testid="email-subject">{email.subject}</h1>
      <dl className="facts">
        <dt>To</dt>
        <dd data-testid="email-to">{email.to}</dd>
        <dt>From</dt>
        <dd>{email.from}</dd>
        <dt>Sent</dt>
        <dd>{new Date(email.createdAt).toLocaleString('en-GB', { timeZone: 'UTC' })}</dd>
      </dl>
      {email.attachments.length > 0 ? (
        <ul aria-label="Attachments">
          {email.attachments.map((a) => (
            <li key={a.filename}>
              <a href={a.href} download={a.filename}>
                {a.filename}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {/* sandbox="" keeps the stored HTML from running any script or navigating this page. */}
      <iframe
        title="Email body"
        sandbox=""
        srcDoc={email.html}
        className="email-frame"
        data-testid="email-body"
      />
      {email.text ? <pre className="email-text">{email.text}</pre> : null}
    </section>
  );
}
