import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { orderByOf, type usePagedSearch } from '#src/lib/use-paged-search.ts';
import { DataTable, type Column } from './data-table.tsx';
import { Pagination } from './pagination.tsx';
import { ListSkeleton } from './skeleton.tsx';
import { ErrorState } from './states.tsx';

export interface PagedTableProps<T> {
  /** The screen's paged search (usePagedSearch): its page, sort, busy flag and error. */
  search: ReturnType<typeof usePagedSearch<T>>;
  /** The translated text of the search's error. */
  errorText: ReactNode;
  /** Shown when the search finds nothing. */
  empty: ReactNode;
  caption: string;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  testId?: string;
}

/**
 * A server-paged list: error with retry, loading, empty, or the sortable table with its
 * pagination, every action sent to the screen's paged-search actor.
 */
export function PagedTable<T>({ search, errorText, empty, caption, columns, rowKey, testId }: PagedTableProps<T>) {
  const { t } = useTranslation('ui');
  const result = search.result;
  if (search.error) return <ErrorState message={errorText} onRetry={() => search.send({ type: 'search.reload' })} />;
  if (!result) return <ListSkeleton label={t('loading')} columns={Math.min(columns.length, 5)} />;
  if (result.totalCount === 0) return <>{empty}</>;
  return (
    <>
      <DataTable
        caption={caption}
        columns={columns}
        rows={result.data}
        rowKey={rowKey}
        sort={search.sort}
        onSort={(sort) => search.send({ type: 'search.sort', orderBy: orderByOf(sort) })}
        busy={search.busy}
        testId={testId}
      />
      <div className={css({ px: '4' })}>
        <Pagination
          page={result.currentPage}
          pageSize={result.pageSize}
          totalCount={result.totalCount}
          totalPages={result.totalPages}
          onPage={(pageNumber) => search.send({ type: 'search.page', pageNumber })}
          onPageSize={(pageSize) => search.send({ type: 'search.pageSize', pageSize })}
          disabled={search.busy}
        />
      </div>
    </>
  );
}
