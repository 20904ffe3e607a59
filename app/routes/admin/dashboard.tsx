import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DonutChart } from '~/components/donut-chart';
import { formatPrice } from '~/domain/plans';
import { dashboardFigures, listAudit } from '~/models/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { env } from '~/utils/env.server';
import { TableScroll } from '~/components/table-scroll';
import { siteName } from '~/utils/meta';

export const meta: MetaFunction = ({ matches }) => [
  { title: `Admin Panel | ${siteName(matches)}` },
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [figures, audit] = await Promise.all([dashboardFigures(), listAudit(15)]);
  const { APP_URL, appUrlConfigured } = env();
  return {
    ...figures,
    // Emailed links fall back to this default while APP_URL is unset: the admin should know.
    unsetAppUrl: appUrlConfigured ? null : APP_URL,
    // Each currency apart: USD first when there is nothing yet, so the cards are never empty.
    revenue: figures.revenue.length
      ? figures.revenue
      : [{ currency: 'USD', recurringCents: 0, totalCents: 0 }],
    audit: audit.map((entry) => ({
      id: entry.id,
      when: entry.createdAt.toISOString().replace('T', ' ').slice(0, 16),
      who: entry.actorEmail,
      action: entry.action,
      detail: entry.detail,
    })),
  };
}

/** '$1,200', '₹69,900', each currency on its own line. */
const amounts = (revenue: { currency: string; cents: number }[]) =>
  revenue.map(({ currency, cents }) => formatPrice(cents, currency)).join(' · ');

export default function Dashboard() {
  const stats = useLoaderData<typeof loader>();
  const cards = [
    ['Users', String(stats.users), `${stats.newMembers} new in the last 30 days`],
    ['Courses', String(stats.courses), `${stats.newCourses} new in the last 30 days`],
    [
      'Recurring Revenue',
      amounts(stats.revenue.map((r) => ({ currency: r.currency, cents: r.recurringCents }))),
      'per month, active plans, each currency apart',
    ],
    [
      'Total Revenue',
      amounts(stats.revenue.map((r) => ({ currency: r.currency, cents: r.totalCents }))),
      'all recorded payments, each currency apart',
    ],
  ];
  return (
    <section>
      <h1>DashBoard</h1>
      {stats.unsetAppUrl ? (
        <p className="admin-notice" role="status" data-testid="app-url-notice">
          <code>APP_URL</code> is not set. Members paying are sent back to the address they are
          using, but links in emails (password resets, receipts, certificates) point to{' '}
          <code>{stats.unsetAppUrl}</code>. Set <code>APP_URL</code> to the address members open
          (for example https://courses.example.com) and restart CourseGen.
        </p>
      ) : null}
      <ul className="stat-cards" aria-label="Dashboard">
        {cards.map(([label, value, detail]) => (
          <li key={label} className="card" data-testid={`stat-${label}`}>
            <h2>{label}</h2>
            <p className="stat-value">{value}</p>
            <p className="muted">{detail}</p>
          </li>
        ))}
      </ul>
      <p data-testid="generation-now">
        Generating now: {stats.lessonsGenerating} lessons, of which {stats.lessonsRetrying} are
        retrying after a failure.
      </p>
      <div className="charts">
        <DonutChart
          title="Users"
          slices={[
            { label: 'Paid', value: stats.paid, color: 'var(--primary)' },
            { label: 'Free', value: stats.free, color: '#0d9488' },
          ]}
        />
        <DonutChart
          title="Courses"
          slices={[
            { label: 'Text', value: stats.textType, color: 'var(--primary)' },
            { label: 'Video', value: stats.videoType, color: '#d97706' },
          ]}
        />
      </div>
      <h2>Recent admin actions</h2>
      {stats.audit.length === 0 ? (
        <p>Nothing Found</p>
      ) : (
        <TableScroll label="Recent admin actions">
          <table data-testid="audit">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {stats.audit.map((entry) => (
                <tr key={entry.id}>
                  <td>{entry.when}</td>
                  <td>{entry.who}</td>
                  <td>{entry.action}</td>
                  <td>{entry.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
