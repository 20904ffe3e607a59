import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { AdminTable } from '~/components/admin-table';
import { FormFeedback } from '~/components/form-feedback';
import { planName } from '~/domain/plans';
import { listUsers } from '~/models/admin.server';
import { changeAdminRole } from '~/services/admin.server';
import { deleteMemberAsAdmin, memberToDelete } from '~/services/accounts/account-deletion.server';
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
  // `?delete=<id>`: the confirmation step of a member's Delete (a link, so no JavaScript needed).
  const deleting = url.searchParams.get('delete');
  const confirmDelete = deleting ? await memberToDelete(deleting) : null;
  return {
    paidOnly,
    ...page,
    q: paging.q,
    sort: paging.sort,
    dir: paging.dir,
    confirmDelete,
  };
}

/** The Add Admin and Remove Admin buttons, and a confirmed Delete. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const body = await readBody(request);
  if (body.intent === 'delete-member') {
    const deleted = await deleteMemberAsAdmin(
      admin,
      typeof body.userId === 'string' ? body.userId : '',
    );
    return deleted.ok
      ? formResult(200, deleted.value.message, true)
      : formResult(deleted.status, deleted.message);
  }
  const result = await changeAdminRole(admin, body);
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
      {data.confirmDelete && !result?.success ? (
        <div className="card delete-member" role="alertdialog" aria-labelledby="delete-member">
          <h2 id="delete-member">
            Delete {data.confirmDelete.name} ({data.confirmDelete.email})?
          </h2>
          <p>
            Their subscription is cancelled at the provider first; then their account, courses and
            everything in them are deleted, and the audit log notes it. This cannot be undone.
          </p>
          <Form method="post" className="row">
            <input type="hidden" name="userId" value={data.confirmDelete.id} />
            <button type="submit" name="intent" value="delete-member" className="button danger">
              Delete member
            </button>
            <Link to={data.paidOnly ? '/paid' : '/users'} className="button">
              Cancel
            </Link>
          </Form>
        </div>
      ) : null}
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
          {
            key: 'delete',
            label: 'Delete',
            render: (row) => (
              <Link
                to={`?delete=${encodeURIComponent(row.id)}`}
                className="button danger"
                aria-label={`Delete ${row.email}`}
              >
                Delete
              </Link>
            ),
          },
        ]}
      />
    </section>
  );
}
