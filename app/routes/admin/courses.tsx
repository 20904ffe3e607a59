import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AdminTable } from '~/components/admin-table';
import { COURSE_TYPE_LABELS } from '~/domain/plans';
import { listCourses } from '~/models/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { pageRequest } from '~/utils/paging.server';

export const meta: MetaFunction = () => [{ title: 'Courses | Admin Panel' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const paging = pageRequest(new URL(request.url), ['title', 'type', 'created'], 'created');
  return { ...(await listCourses(paging)), q: paging.q, sort: paging.sort, dir: paging.dir };
}

export default function Courses() {
  const data = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>Courses</h1>
      <AdminTable
        label="Courses"
        info={data}
        rows={data.rows}
        rowKey={(row) => row.id}
        columns={[
          { key: 'title', label: 'Title', sortable: true, render: (row) => row.title },
          {
            key: 'type',
            label: 'Type',
            sortable: true,
            render: (row) => COURSE_TYPE_LABELS[row.type],
          },
          { key: 'owner', label: 'Owner', render: (row) => row.owner },
        ]}
      />
    </section>
  );
}
