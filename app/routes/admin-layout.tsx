import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { requireAdmin } from '~/utils/auth.server';

/**
 * Every admin screen sits under this layout, so none can forget the check:
 * an anonymous visitor goes to /signin, a member to /home. Each screen's own
 * loader and action still checks too, because Remix runs a child's action
 * without its parent's loader.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

export default function AdminLayout() {
  return <Outlet />;
}
