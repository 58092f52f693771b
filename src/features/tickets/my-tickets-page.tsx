import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { Suspense, useCallback, useEffect, useState, type ComponentProps, type ComponentType } from 'react';
import { lazyChunk } from '#src/lib/lazy-chunk.ts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { Pagination } from '#src/components/ui/pagination.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState, ErrorState } from '#src/components/ui/states.tsx';
import { orderByOf, usePagedSearch } from '#src/lib/use-paged-search.ts';
import { ticketsApi, type TicketCounts, type TicketSummary } from './api/tickets-api.ts';
import { StatusFilter } from './components/status-filter.tsx';
import { TicketList } from './components/ticket-list.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useUnreadCounts } from '#src/features/chat/index.ts';
import { useLiveTicketList } from './use-live-list.ts';

// The form (file upload, selects, dialog) is its own chunk, loaded when someone raises a ticket.
type CreateTicketDialogProps = ComponentProps<typeof import('./components/create-ticket-dialog.tsx').CreateTicketDialog>;
const CreateTicketDialog = lazyChunk<CreateTicketDialogProps>(() =>
  import('./components/create-ticket-dialog.tsx').then((module): { default: ComponentType<CreateTicketDialogProps> } => ({
    default: module.CreateTicketDialog,
  })),
);

/** The requester's tickets: status filter with counts, search, paging, and raising a new one. */
export default function MyTicketsPage() {
  const { t } = useTranslation('tickets');
  const navigate = useNavigate();
  const search = usePagedSearch<TicketSummary>((query) => ticketsApi.search('mine', query), { orderBy: ['lastModifiedOn desc'] }, { statusId: 'number' });
  const [counts, setCounts] = useState<TicketCounts | null>(null);
  const [creating, setCreating] = useState(false);
  const errorText = useErrorText(search.error);

  const refreshCounts = useCallback(() => {
    ticketsApi.counts('mine').then(setCounts, () => setCounts(null));
  }, []);
  useEffect(refreshCounts, [refreshCounts]);
  // Another user's change to one of these tickets (a claim, a status) shows at once.
  useLiveTicketList(() => {
    search.send({ type: 'search.reload' });
    refreshCounts();
  });

  const statusId = (search.query.filters.statusId as number | null | undefined) ?? null;
  const result = search.result;
  const unread = useUnreadCounts(result?.data.map((row) => row.ticketId) ?? []);

  return (
    <section aria-labelledby="my-tickets-title">
      <PageHeader
        id="my-tickets-title"
        title={t('mine.title')}
        description={t('mine.description')}
        actions={<Button onClick={() => setCreating(true)}>{t('create.open')}</Button>}
      />
      <div className={card}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', p: '4' })}>
          <SearchInput
            label={t('searchLabel')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
          />
          <FilterFold active={statusId === null ? 0 : 1}>
            <StatusFilter value={statusId} counts={counts} onChange={(id) => search.send({ type: 'search.filter', filters: { statusId: id } })} />
          </FilterFold>
        </div>
        {search.error ? (
          <ErrorState message={errorText} onRetry={() => search.send({ type: 'search.reload' })} />
        ) : !result ? (
          <ListSkeleton />
        ) : result.totalCount === 0 ? (
          <EmptyState
            title={search.query.keyword || statusId ? t('mine.noMatch') : t('mine.empty')}
            action={search.query.keyword || statusId ? undefined : <Button onClick={() => setCreating(true)}>{t('create.open')}</Button>}
          >
            {search.query.keyword || statusId ? t('mine.noMatchHint') : t('mine.emptyHint')}
          </EmptyState>
        ) : (
          <>
            <TicketList
              rows={result.data}
              unread={unread}
              sort={search.sort}
              onSort={(sort) => search.send({ type: 'search.sort', orderBy: orderByOf(sort) })}
              busy={search.busy}
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
        )}
      </div>
      {creating ? (
        <Suspense fallback={null}>
          <CreateTicketDialog
            onClose={() => setCreating(false)}
            onCreated={(ticket) => {
              setCreating(false);
              navigate(`/tickets/${ticket.ticketId}`);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
