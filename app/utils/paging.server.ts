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

/**
 * The `Link` header of a page (RFC 8288, as GitHub pages its lists): first, prev, next and last,
 * each this request's own address with another `page`, its other parameters kept.
 */
export function pageLinks(url: URL, page: { page: number; pageSize: number; total: number }) {
  const last = Math.max(1, Math.ceil(page.total / page.pageSize));
  const link = (number: number, rel: string) => {
    const target = new URL(url.pathname + url.search, 'http://x');
    target.searchParams.set('page', String(number));
    target.searchParams.set('pageSize', String(page.pageSize));
    return `<${target.pathname}${target.search}>; rel="${rel}"`;
  };
  return [
    link(1, 'first'),
    ...(page.page > 1 ? [link(Math.min(page.page - 1, last), 'prev')] : []),
    ...(page.page < last ? [link(page.page + 1, 'next')] : []),
    link(last, 'last'),
  ].join(', ');
}
