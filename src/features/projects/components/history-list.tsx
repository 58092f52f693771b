import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import type { PagedResult } from '#machines/paged-search.machine.ts';
import { formatDateTime } from '#src/lib/format.ts';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { Pagination } from '#src/components/ui/pagination.tsx';
import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { EmptyState, ErrorState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import type { HistoryEntry } from '../api/projects-api.ts';

const PAGE_SIZE = 10;

/**
 * What happened to a project or an exam (docs/decisions/0166): who, when, from → to, the
 * reason, and which fields an edit changed. Newest first, paged on the server. `refreshKey`
 * changes after an action of the screen, which reloads the first page.
 */
export function HistoryList({
  load,
  refreshKey,
  statusKey,
  caption,
  testId,
}: {
  load: (query: { pageNumber: number; pageSize: number }) => Promise<PagedResult<HistoryEntry>>;
  refreshKey: number;
  /** The translation key prefix of the record's statuses (`status` or `examStatus`). */
  statusKey: 'status' | 'examStatus';
  caption: string;
  testId: string;
}) {
  const { t, i18n } = useTranslation('projects');
  const [query, setQuery] = useState({ pageNumber: 1, pageSize: PAGE_SIZE });
  const [page, setPage] = useState<PagedResult<HistoryEntry> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errorText = useErrorText(error);

  const fetchPage = useCallback(
    (wanted: { pageNumber: number; pageSize: number }) => {
      setBusy(true);
      setError(null);
      return load(wanted).then(
        (result) => {
          setPage(result);
          setBusy(false);
        },
        (failure: unknown) => {
          setError(failure);
          setBusy(false);
        },
      );
    },
    [load],
  );

  // An action of the screen (or another page) loads again; a new action starts at the newest.
  useEffect(() => {
    void fetchPage(query);
    // The query is sent with its own changes below; only a refresh reloads from here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetchPage, refreshKey]);

  const go = (next: Partial<typeof query>) => {
    const wanted = { ...query, ...next };
    setQuery(wanted);
    void fetchPage(wanted);
  };

  const status = (value: string | null) => (value ? t(`${statusKey}.${value}`, { defaultValue: value }) : '—');
  const when = (at: string) => formatDateTime(at, { locale: i18n.language });
  const what = (entry: HistoryEntry) => t(`history.event.${entry.event}`, { defaultValue: entry.event });

  const columns: Column<HistoryEntry>[] = [
    { key: 'at', header: t('history.when'), cell: (e) => <time dateTime={e.at}>{when(e.at)}</time> },
    { key: 'by', header: t('history.who'), cell: (e) => e.by?.name || t('history.unknownUser') },
    { key: 'event', header: t('history.what'), cell: what },
    {
      key: 'change',
      header: t('history.change'),
      cell: (e) =>
        e.fields.length
          ? t('history.fields', { fields: e.fields.map((field) => t(`history.field.${field}`, { defaultValue: field })).join(', ') })
          : e.fromStatus || e.toStatus
            ? t('history.fromTo', { from: status(e.fromStatus), to: status(e.toStatus) })
            : '—',
    },
    { key: 'reason', header: t('history.reason'), cell: (e) => e.reason ?? '—' },
  ];

  if (error) return <ErrorState message={errorText} onRetry={() => void fetchPage(query)} />;
  if (!page) return <ListSkeleton label={t('history.loading')} columns={5} />;
  if (page.totalCount === 0) return <EmptyState title={t('history.none')} />;
  return (
    <div data-testid={testId}>
      <DataTable caption={caption} columns={columns} rows={page.data} rowKey={(e) => `${e.at}-${e.event}-${e.by?.userId ?? ''}`} busy={busy} />
      <div className={css({ px: '4' })}>
        <Pagination
          page={page.currentPage}
          pageSize={page.pageSize}
          totalCount={page.totalCount}
          totalPages={page.totalPages}
          onPage={(pageNumber) => go({ pageNumber })}
          onPageSize={(pageSize) => go({ pageSize, pageNumber: 1 })}
          disabled={busy}
        />
      </div>
    </div>
  );
}
