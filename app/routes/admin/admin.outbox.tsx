import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { listOutbox } from '~/models/outbox.server';
import { requireAdmin } from '~/utils/auth.server';
import { emailDelivery } from '~/services/vendors/mailer.server';
import { TableScroll } from '~/components/table-scroll';
import { siteName } from '~/utils/meta';

export const meta: MetaFunction = ({ matches }) => [{ title: `Outbox | ${siteName(matches)}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {
    delivery: emailDelivery(),
    messages: (await listOutbox()).map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
  };
}

export default function Outbox() {
  const { delivery, messages } = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <h1>Outbox</h1>
      <p>
        {delivery === 'outbox'
          ? 'Demo mode keeps every email here instead of sending it.'
          : 'Emails are delivered by SMTP; this list only holds what was kept in demo mode.'}
      </p>
      {messages.length === 0 ? (
        <p>Nothing Found</p>
      ) : (
        <TableScroll label="Outbox">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((message) => (
                <tr key={message.id}>
                  <td>{message.to}</td>
                  <td>
                    <Link to={`/admin/outbox/${message.id}`}>{message.subject}</Link>
                  </td>
                  <td>
                    <time dateTime={message.createdAt}>
                      {new Date(message.createdAt).toLocaleString('en-GB', { timeZone: 'UTC' })}
                    </time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
