import type { Page } from '~/models/admin.server';
import { requireApiAdmin } from '~/utils/auth.server';
import { pageRequest } from '~/utils/paging.server';
import { guardApi } from '~/utils/responses.server';
import type { PageRequest } from '~/models/admin.server';

/**
 * The admin list routes: admins only (401 anonymous, 403 member), the API's
 * array body, paged with `?page=&pageSize=` (capped at 100) and `q`, `sort`,
 * `dir`; the total comes in `X-Total-Count`.
 */
export function adminListRoute<T, R>(
  name: string,
  sorts: readonly string[],
  list: (paging: PageRequest) => Page<T>,
  shape: (row: T) => R,
) {
  return ({ request }: { request: Request }) =>
    guardApi(name, async () => {
      await requireApiAdmin(request);
      const paging = pageRequest(new URL(request.url), sorts, sorts[sorts.length - 1]!);
      const page = list(paging);
      return Response.json(page.rows.map(shape), {
        headers: {
          'X-Total-Count': String(page.total),
          'X-Page': String(page.page),
          'X-Page-Size': String(page.pageSize),
        },
      });
    });
}

export const apiUser = (row: { id: string; email: string; name: string; type: string }) => ({
  _id: row.id,
  email: row.email,
  mName: row.name,
  type: row.type,
});
