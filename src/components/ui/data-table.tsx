import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The field the server sorts by (`orderBy`); sortable when set. */
  sortKey?: string;
  align?: 'start' | 'end' | 'center';
  /** Hidden below the sm breakpoint to keep small screens readable. */
  hideOnSmall?: boolean;
}

export interface SortState {
  key: string;
  direction: 'asc' | 'desc';
}

const table = css({ width: '100%', borderCollapse: 'collapse', fontSize: 'sm' });
const th = css({
  textAlign: 'start',
  fontWeight: 'semibold',
  color: 'fg.muted',
  fontSize: 'xs',
  textTransform: 'uppercase',
  letterSpacing: 'wide',
  px: '3',
  py: '2.5',
  borderBottomWidth: '1px',
  borderColor: 'border',
  bg: 'bg.muted',
  whiteSpace: 'nowrap',
});
const td = css({ px: '3', py: '2.5', borderBottomWidth: '1px', borderColor: 'border', verticalAlign: 'middle' });
const small = css({ display: { base: 'none', sm: 'table-cell' } });
const sortButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  cursor: 'pointer',
  textTransform: 'inherit',
  letterSpacing: 'inherit',
  fontWeight: 'inherit',
  _hover: { color: 'fg.default' },
});

/** Sort of the next click on a column: ascending, then descending, then ascending again. */
export function nextSort(current: SortState | null, key: string): SortState {
  return current?.key === key && current.direction === 'asc' ? { key, direction: 'desc' } : { key, direction: 'asc' };
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  busy,
  testId,
}: {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  sort?: SortState | null;
  onSort?: (sort: SortState) => void;
  busy?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('ui');
  const align = (column: Column<T>) => (column.align === 'end' ? 'end' : column.align === 'center' ? 'center' : 'start');
  return (
    <div className={css({ overflowX: 'auto' })}>
      <table className={table} aria-busy={busy || undefined} data-testid={testId} style={{ opacity: busy ? 0.6 : 1 }}>
        <caption className={css({ srOnly: true })}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const sorted = sort?.key === column.sortKey;
              return (
                <th
                  key={column.key}
                  scope="col"
                  className={cx(th, column.hideOnSmall && small)}
                  style={{ textAlign: align(column) }}
                  aria-sort={column.sortKey ? (sorted ? (sort!.direction === 'asc' ? 'ascending' : 'descending') : 'none') : undefined}
                >
                  {column.sortKey && onSort ? (
                    <button type="button" className={sortButton} onClick={() => onSort(nextSort(sort ?? null, column.sortKey!))}>
                      {column.header}
                      <span aria-hidden="true">{sorted ? (sort!.direction === 'asc' ? '▲' : '▼') : '↕'}</span>
                      <span className={css({ srOnly: true })}>{t('sortBy')}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={css({ _hover: { bg: 'bg.hover' } })}>
              {columns.map((column) => (
                <td key={column.key} className={cx(td, column.hideOnSmall && small)} style={{ textAlign: align(column) }}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
