import { Form, Link, useLocation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { TableScroll } from './table-scroll';

export interface AdminColumn<T> {
  key: string;
  label: string;
  sortable?: boolean;
  render: (row: T) => ReactNode;
}

interface PageInfo {
  total: number;
  page: number;
  pageSize: number;
  q: string;
  sort: string;
  dir: 'asc' | 'desc';
}

/** A server-paged, searchable, sortable admin table: every control is a link or a GET form. */
export function AdminTable<T>({
  columns,
  rows,
  info,
  rowKey,
  label,
}: {
  columns: AdminColumn<T>[];
  rows: T[];
  info: PageInfo;
  rowKey: (row: T) => string;
  label: string;
}) {
  const location = useLocation();
  const href = (changes: Record<string, string | number>) => {
    const query = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(changes)) query.set(name, String(value));
    return `${location.pathname}?${query}`;
  };
  const pages = Math.max(1, Math.ceil(info.total / info.pageSize));
  return (
    <div className="admin-table">
      <Form method="get" className="admin-search" role="search">
        <label>
          Search
          <input type="search" name="q" defaultValue={info.q} />
        </label>
        <input type="hidden" name="sort" value={info.sort} />
        <input type="hidden" name="dir" value={info.dir} />
        <button type="submit" className="button">
          Search
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="empty" data-testid="empty">
          Nothing Found
        </p>
      ) : (
        <TableScroll label={label}>
          <table aria-label={label} data-testid="admin-table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.key} scope="col">
                    {column.sortable ? (
                      <Link
                        to={href({
                          sort: column.key,
                          dir: info.sort === column.key && info.dir === 'asc' ? 'desc' : 'asc',
                          page: 1,
                        })}
                      >
                        {column.label}
                        {info.sort === column.key ? (info.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                      </Link>
                    ) : (
                      column.label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.key}>{column.render(row)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <nav className="pager" aria-label="Pages">
        {info.page > 1 ? <Link to={href({ page: info.page - 1 })}>Previous</Link> : null}
        <span data-testid="page-info">
          Page {info.page} of {pages} ({info.total} in all)
        </span>
        {info.page < pages ? <Link to={href({ page: info.page + 1 })}>Next</Link> : null}
      </nav>
    </div>
  );
}
