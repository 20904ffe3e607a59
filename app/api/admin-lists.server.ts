import type { AppLoadContext } from '@remix-run/node';
import { memberType } from '~/domain/plans';
import type { Page, PageRequest } from '~/models/admin.server';
import type { Plan } from '../../db/schema';
import { requireApiAdmin } from '~/utils/auth.server';
import { pageLinks, pageRequest } from '~/utils/paging.server';
import { requireValidQuery } from '~/utils/validation.server';
import { guardApi } from '~/utils/responses.server';
import { apiJson, type ApiBody, type ApiOperation } from './contract.server';

type RowOf<O extends ApiOperation> = ApiBody<O, 200> extends readonly (infer E)[] ? E : never;

/**
 * The admin list routes: admins only (401 anonymous, 403 member), the API's
 * array body, paged with `?page=&pageSize=` (capped at 100) and `q`, `sort`,
 * `dir`; the total comes in `X-Total-Count`, the other pages in `Link`. A page or pageSize
 * out of range is a 400 (the contract's query schema).
 */
export function adminListRoute<O extends ApiOperation, T>(
  operation: O & { responses: { 200: unknown } },
  sorts: readonly string[],
  list: (paging: PageRequest) => Promise<Page<T>>,
  shape: (row: T) => RowOf<O> | Promise<RowOf<O>>,
) {
  const name = operation.path.slice('/api/'.length);
  return ({ request, context }: { request: Request; context?: AppLoadContext }) =>
    guardApi(name, async () => {
      await requireApiAdmin(request, context);
      const url = new URL(request.url);
      if (operation.query) requireValidQuery(url, operation.query);
      const paging = pageRequest(url, sorts, sorts[sorts.length - 1]!);
      const page = await list(paging);
      const rows = await Promise.all(page.rows.map(async (row) => shape(row)));
      return apiJson(operation, 200, rows as ApiBody<O, 200>, {
        headers: {
          'X-Total-Count': String(page.total),
          'X-Page': String(page.page),
          'X-Page-Size': String(page.pageSize),
          Link: pageLinks(url, page),
        },
      });
    });
}

/** A member as the admin lists show one: the spec's field names, the plan as its `type`. */
export const apiUser = (row: { id: string; email: string; name: string; type: Plan }) => ({
  _id: row.id,
  email: row.email,
  mName: row.name,
  type: memberType(row.type),
});
