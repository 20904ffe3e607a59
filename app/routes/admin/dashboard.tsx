import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { dashboardStats } from '~/models/admin-stats.server';
import { requireAdmin } from '~/utils/auth.server';

export const meta: MetaFunction = () => [{ title: 'Admin Panel | CourseGen' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return dashboardStats();
}

/** The admin panel's start: the dashboard's counts and the tools built so far. */
export default function Dashboard() {
  const stats = useLoaderData<typeof loader>();
  const cards = [
    {
      label: 'Users',
      value: String(stats.users),
      detail: `${stats.paid} paid, ${stats.free} free`,
    },
    {
      label: 'Courses',
      value: String(stats.courses),
      detail: `${stats.textType} theory & image, ${stats.videoType} video & theory`,
    },
    { label: 'Recurring Revenue', value: `$${stats.recurringRevenue}`, detail: 'active plans' },
  ];
  return (
    <section className="page">
      <h1>Admin Panel</h1>
      <ul className="stat-cards" aria-label="Dashboard">
        {cards.map((card) => (
          <li key={card.label} className="card" data-testid={`stat-${card.label}`}>
            <h2>{card.label}</h2>
            <p className="stat-value">{card.value}</p>
            <p className="muted">{card.detail}</p>
          </li>
        ))}
      </ul>
      <h2>Tools</h2>
      <ul>
        <li>
          <Link to="/admin/outbox">Outbox</Link>: every email the demo mode kept instead of sending.
        </li>
      </ul>
    </section>
  );
}
