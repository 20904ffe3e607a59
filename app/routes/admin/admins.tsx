import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { FormFeedback } from '~/components/form-feedback';
import { listAdmins } from '~/models/admin.server';
import { changeAdminRole } from '~/services/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { TableScroll } from '~/components/table-scroll';
import { formResult } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';

export const meta: MetaFunction = () => [{ title: 'Admins | Admin Panel' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const me = await requireAdmin(request);
  return { me: me.id, admins: await listAdmins() };
}

/** The Add Admin and Remove Admin buttons. */
export async function action({ request }: ActionFunctionArgs) {
  const result = await changeAdminRole(await requireAdmin(request), await readBody(request));
  return result.ok
    ? formResult(200, result.value.message, true)
    : formResult(result.status, result.message);
}

export default function Admins() {
  const { me, admins } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section>
      <h1>Admins</h1>
      <FormFeedback result={result} />
      <Form method="post" className="admin-search">
        <label>
          Email
          <input type="email" name="email" required />
        </label>
        <button type="submit" name="intent" value="add" className="button primary">
          Add Admin
        </button>
      </Form>
      <TableScroll label="Admins">
        <table aria-label="Admins" data-testid="admin-table">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Edit</th>
            </tr>
          </thead>
          <tbody>
            {admins.map((admin) => (
              <tr key={admin.id}>
                <td>{admin.email}</td>
                <td>{admin.name}</td>
                <td>
                  {admin.role === 'main_admin' ? (
                    'Main Admin'
                  ) : admin.id === me ? (
                    'You'
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="email" value={admin.email} />
                      <button type="submit" name="intent" value="remove" className="button">
                        Remove Admin
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
