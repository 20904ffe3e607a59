import { flatRoutes } from '@remix-run/fs-routes';
import { layout, route, type RouteConfig } from '@remix-run/route-config';
import { POLICY_PAGES } from './domain/policy-pages';

/**
 * The route tree as the product reads: each group is a folder of flat routes
 * (Remix's file naming), so a new page joins its group by its file alone.
 */
const group = (folder: string) =>
  flatRoutes({ rootDirectory: `routes/${folder}`, ignoredRouteFiles: ['**/*.test.{ts,tsx}'] });

export default [
  // Anyone: landing, marketing pages, contact, certificate verification, not found.
  ...(await group('public')),
  ...Object.values(POLICY_PAGES).map((page) =>
    route(page.path.slice(1), 'routes/policy.tsx', { id: `policy-${page.key}` }),
  ),
  // Signing in and out.
  ...(await group('auth')),
  // A signed-in member's pages: courses, certificates, profile, payment.
  ...(await group('member')),
  // The JSON API (and the status routes pages poll).
  ...(await group('api')),
  // Admins only: one layout whose loader requires an admin.
  layout('routes/admin-layout.tsx', [
    ...(await group('admin')),
    ...Object.values(POLICY_PAGES).map((page) =>
      route(`edit${page.path.slice(1)}`, 'routes/admin-policy-editor.tsx', {
        id: `edit-policy-${page.key}`,
      }),
    ),
  ]),
] satisfies RouteConfig;
