import type { PageRequest } from '~/models/admin.server';

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 25;

/** Paging, search and sort from a URL's query (`page`, `pageSize`, `q`, `sort`, `dir`), capped. */
export function pageRequest(url: URL, sorts: readonly string[], defaultSort: string): PageRequest {
  const query = url.searchParams;
  const number = (name: string, fallback: number) => {
    const value = Number(query.get(name));
    return Number.isSafeInteger(value) && value > 0 ? value : fallback;
  };
  const sort = query.get('sort') ?? '';
  return {
    page: Math.min(number('page', 1), 1_000_000),
    pageSize: Math.min(number('pageSize', DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE),
    q: (query.get('q') ?? '').trim().slice(0, 100),
    sort: sorts.includes(sort) ? sort : defaultSort,
    dir: query.get('dir') === 'asc' ? 'asc' : 'desc',
  };
}
