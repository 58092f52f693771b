import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';
import { breakpoints, useMediaQuery } from '#src/lib/use-media-query.ts';
import { SelectField } from './select.tsx';

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
  const phone = useMediaQuery(`(max-width: ${breakpoints.sm - 0.02}px)`);
  if (phone) return <CardList caption={caption} columns={columns} rows={rows} rowKey={rowKey} sort={sort} onSort={onSort} busy={busy} testId={testId} />;
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

const isActions = (column: { key: string }) => column.key === 'actions' || column.key === 'action';

const card = css({ bg: 'bg.surface', borderBottomWidth: '1px', borderColor: 'border', px: '4', py: '3', display: 'flex', flexDirection: 'column', gap: '2' });
const cardFields = css({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  columnGap: '3',
  rowGap: '1',
  fontSize: 'sm',
  '& dt': { color: 'fg.muted', fontSize: 'xs', fontWeight: 'semibold', alignSelf: 'center' },
  '& dd': { minWidth: 0, overflowWrap: 'anywhere' },
});

/**
 * The same rows as cards on a phone (issue 23: tables below 768 px hid status and actions off
 * screen). The first column is the card's title, every other column a labelled line (status
 * included), the row's actions at the foot of the card; an Ark Select keeps the sort.
 */
function CardList<T>({
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
  const [title, ...rest] = columns;
  const fields = rest.filter((column) => !isActions(column));
  const actions = rest.filter(isActions);
  const sortable = columns.filter((column) => column.sortKey);
  const sortValue = sort ? `${sort.key} ${sort.direction}` : '';
  return (
    <div aria-busy={busy || undefined} style={{ opacity: busy ? 0.6 : 1 }} data-layout="cards">
      {onSort && sortable.length ? (
        <div className={css({ px: '4', py: '2' })}>
          <SelectField
            layout="inline"
            label={t('sortCards')}
            value={sortValue}
            placeholder={sortValue ? undefined : '—'}
            options={sortable.flatMap((column) =>
              (['asc', 'desc'] as const).map((direction) => ({
                value: `${column.sortKey} ${direction}`,
                label: t(direction === 'asc' ? 'sortAscending' : 'sortDescending', {
                  column: typeof column.header === 'string' ? column.header : column.key,
                }),
              })),
            )}
            onValueChange={(value) => {
              const [key, direction] = value.split(' ');
              if (key) onSort({ key, direction: direction === 'desc' ? 'desc' : 'asc' });
            }}
            testId={testId ? `${testId}-sort` : 'cards-sort'}
          />
        </div>
      ) : null}
      <ul aria-label={caption} data-testid={testId} className={css({ borderTopWidth: '1px', borderColor: 'border' })}>
        {rows.map((row) => (
          <li key={rowKey(row)} className={card} data-testid="row-card">
            <div className={css({ fontWeight: 'semibold', minWidth: 0, overflowWrap: 'anywhere' })}>{title.cell(row)}</div>
            {fields.length ? (
              <dl className={cardFields}>
                {fields.map((column) => (
                  <div key={column.key} className={css({ display: 'contents' })}>
                    <dt>{column.header}</dt>
                    <dd>{column.cell(row)}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {actions.length ? (
              <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap' })}>
                {actions.map((column) => (
                  <span key={column.key}>{column.cell(row)}</span>
                ))}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
