import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AdminTable } from '~/components/admin-table';
import { listContacts } from '~/models/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { pageRequest } from '~/utils/paging.server';

export const meta: MetaFunction = () => [{ title: 'Contacts | Admin Panel' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const paging = pageRequest(new URL(request.url), ['created', 'email'], 'created');
  return { ...(await listContacts(paging)), q: paging.q, sort: paging.sort, dir: paging.dir };
}

export default function Contacts() {
  const data = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>Contacts</h1>
      <AdminTable
        label="Contacts"
        info={data}
        rows={data.rows}
        rowKey={(row) => row.id}
        columns={[
          { key: 'name', label: 'Name', render: (row) => `${row.firstName} ${row.lastName}` },
          {
            key: 'email',
            label: 'Email and phone',
            sortable: true,
            render: (row) => (
              <>
                {row.email}
                <br />
                {row.phone}
              </>
            ),
          },
          { key: 'message', label: 'Message', render: (row) => row.message },
        ]}
      />
    </section>
  );
}
