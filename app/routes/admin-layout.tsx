import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import adminStyles from '~/styles/admin.css?url';
import { isMainAdminRole } from '~/domain/roles';
import { requireAdmin } from '~/utils/auth.server';
import { env } from '~/utils/env.server';
import { appVersion } from '~/utils/version.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }];

/**
 * Every admin screen sits under this layout, so none can forget the check:
 * an anonymous visitor goes to /signin, a member to /home. Each screen's own
 * loader and action still checks too, because Remix runs a child's action
 * without its parent's loader.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  return { demo: env().demo, version: appVersion(), mainAdmin: isMainAdminRole(user.role) };
}

const ENTRIES = [
  ['/dashboard', 'DashBoard'],
  ['/users', 'Users'],
  ['/courses', 'Courses'],
  ['/paid', 'Paid Users'],
  ['/admins', 'Admins'],
  ['/contacts', 'Contacts'],
  ['/editterms', 'Terms'],
  ['/editprivacy', 'Privacy'],
  ['/editcancellation', 'Cancellation'],
  ['/editrefund', 'Refund'],
  ['/editbilling', 'Subscription & Billing'],
  ['/admin/queues', 'Queues'],
] as const;
/** The install's settings are the main admin's alone (ADR 0055). */
const MAIN_ADMIN_ENTRIES = [['/admin/settings', 'Settings']] as const;
const DEMO_ENTRIES = [
  ['/admin/outbox', 'Outbox'],
  ['/admin/billing-demo', 'Billing simulator'],
] as const;

export default function AdminLayout() {
  const { demo, version, mainAdmin } = useLoaderData<typeof loader>();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  return (
    <div className={`admin${open ? ' drawer-open' : ''}`}>
      <header className="admin-header">
        <button
          type="button"
          className="drawer-toggle"
          aria-expanded={open}
          aria-controls="admin-sidebar"
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
        <p className="admin-title">Admin Panel</p>
      </header>
      <nav id="admin-sidebar" className="admin-sidebar" aria-label="Admin">
        <ul>
          {[
            ...ENTRIES,
            ...(mainAdmin ? MAIN_ADMIN_ENTRIES : []),
            ...(demo ? DEMO_ENTRIES : []),
          ].map(([to, label]) => (
            <li key={to}>
              <NavLink to={to} prefetch="intent">
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {open ? (
        <div
          className="drawer-overlay"
          data-testid="drawer-overlay"
          onClick={() => setOpen(false)}
          aria-hidden="true"
        />
      ) : null}
      <main className="admin-main">
        <Outlet />
        <footer className="admin-footer">
          CourseGen <span data-testid="app-version">{version}</span>
        </footer>
      </main>
    </div>
  );
}
