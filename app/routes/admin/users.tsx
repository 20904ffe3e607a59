import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { AdminTable } from '~/components/admin-table';
import { FormFeedback } from '~/components/form-feedback';
import { planName } from '~/domain/plans';
import { listUsers } from '~/models/admin.server';
import { changeAdminRole } from '~/services/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { formResult } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';
import { pageRequest } from '~/utils/paging.server';

export const meta: MetaFunction = () => [{ title: 'Users | Admin Panel' }];

/** Users (/users) and Paid Users (/paid, which re-exports this module). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const paidOnly = url.pathname === '/paid';
  const paging = pageRequest(url, ['email', 'name', 'type', 'created'], 'created');
  const page = await listUsers(paging, { paidOnly });
  return { paidOnly, ...page, q: paging.q, sort: paging.sort, dir: paging.dir };
}

/** The Add Admin and Remove Admin buttons. */
export async function action({ request }: ActionFunctionArgs) {
  const result = await changeAdminRole(await requireAdmin(request), await readBody(request));
  return result.ok
    ? formResult(200, result.value.message, true)
    : formResult(result.status, result.message);
}

export default function Users() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section>
      <h1>{data.paidOnly ? 'Paid Users' : 'Users'}</h1>
      <FormFeedback result={result} />
      <AdminTable
        label={data.paidOnly ? 'Paid Users' : 'Users'}
        info={data}
        rows={data.rows}
        rowKey={(row) => row.id}
        columns={[
          { key: 'email', label: 'Email', sortable: true, render: (row) => row.email },
          { key: 'name', label: 'Name', sortable: true, render: (row) => row.name },
          { key: 'type', label: 'Type', sortable: true, render: (row) => planName(row.type) },
          {
            key: 'admin',
            label: 'Admin',
            render: (row) =>
              row.role === 'member' ? (
                <Form method="post">
                  <input type="hidden" name="email" value={row.email} />
                  <button type="submit" name="intent" value="add" className="button">
                    Add Admin
                  </button>
                </Form>
              ) : row.role === 'main_admin' ? (
                'Main Admin'
              ) : (
                'Admin'
              ),
          },
        ]}
      />
    </section>
  );
}
