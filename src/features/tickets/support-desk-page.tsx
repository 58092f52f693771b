import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { P } from '#machines/permissions.ts';
import { ticketStatuses } from '#machines/ticket-lifecycle.machine.ts';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { useHasPermission } from '#src/app/use-permission.ts';
import { Button } from '#src/components/ui/button.tsx';
import { DeferredSelectField } from '#src/components/ui/deferred-select.tsx';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { Pagination } from '#src/components/ui/pagination.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { Tabs } from '#src/components/ui/tabs.tsx';
import { EmptyState, ErrorState } from '#src/components/ui/states.tsx';
import { orderByOf, usePagedSearch } from '#src/lib/use-paged-search.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { NoAgentsWarning, groupsWithoutAgents } from './components/no-agents-warning.tsx';
import { supportGroupsApi, ticketsApi, type SupportGroup, type TicketCounts, type TicketListKind, type TicketSummary } from './api/tickets-api.ts';
import { useUnreadCounts } from '#src/features/chat/index.ts';
import { StatusFilter } from './components/status-filter.tsx';
import { TicketList } from './components/ticket-list.tsx';
import { useLiveTicketList } from './use-live-list.ts';

type DeskTab = Exclude<TicketListKind, 'mine'>;

/** One list of the desk (queue, every ticket, raised for others), with its filters and paging. */
function DeskList({ kind, groups }: { kind: DeskTab; groups: SupportGroup[] }) {
  // Open tickets in a group nobody works in wait for ever: flagged for the support admin (issue 23).
  const withoutAgents = useMemo(() => new Set(groupsWithoutAgents(groups).map((g) => g.supportGroupId)), [groups]);
  const { t } = useTranslation('tickets');
  const search = usePagedSearch<TicketSummary>(
    (query) => ticketsApi.search(kind, query),
    {
      orderBy: kind === 'desk' ? ['createdOn asc'] : ['lastModifiedOn desc'],
      filters: kind === 'desk' ? { statusId: ticketStatuses.Open } : {},
    },
    { statusId: 'number', supportGroupId: 'number' },
  );
  const [counts, setCounts] = useState<TicketCounts | null>(null);
  const [claiming, setClaiming] = useState<number | null>(null);
  const navigate = useNavigate();
  const errorText = useErrorText(search.error);
  const statusId = (search.query.filters.statusId as number | null | undefined) ?? null;
  const groupId = (search.query.filters.supportGroupId as number | null | undefined) ?? null;

  const refreshCounts = useCallback(() => {
    if (kind === 'forOthers') return;
    ticketsApi.counts('desk', groupId).then(setCounts, () => setCounts(null));
  }, [kind, groupId]);
  useEffect(refreshCounts, [refreshCounts]);
  // Tickets claimed, moved or raised by others appear, move and leave the queue live.
  useLiveTicketList(() => {
    search.send({ type: 'search.reload' });
    refreshCounts();
  });

  const claim = async (ticket: TicketSummary) => {
    setClaiming(ticket.ticketId);
    try {
      await ticketsApi.perform(ticket.ticketId, 'ticket.claim', {});
      void notify.success(t('desk.claimed', { id: ticket.ticketId }));
      navigate(`/support/tickets/${ticket.ticketId}`);
    } catch (error) {
      // Someone else was faster (409): say so and show the queue as it is now.
      void notify.error(error);
      search.send({ type: 'search.reload' });
      refreshCounts();
    } finally {
      setClaiming(null);
    }
  };

  const result = search.result;
  const unread = useUnreadCounts(result?.data.map((row) => row.ticketId) ?? []);
  return (
    <div className={card}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', p: '4' })}>
        <SearchInput label={t('searchLabel')} value={search.query.keyword} onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })} />
        {/* Phones: the status chips and the group fold behind one button (issue 23). */}
        <FilterFold active={(kind !== 'forOthers' && statusId !== null ? 1 : 0) + (groupId == null ? 0 : 1)}>
          {kind !== 'forOthers' ? (
            <StatusFilter value={statusId} counts={counts} onChange={(id) => search.send({ type: 'search.filter', filters: { statusId: id } })} />
          ) : null}
          <DeferredSelectField
            layout="inline"
            label={t('field.group')}
            value={groupId == null ? '' : String(groupId)}
            placeholder={t('desk.allGroups')}
            options={groups.map((g) => ({ value: String(g.supportGroupId), label: g.name }))}
            onValueChange={(chosen) => search.send({ type: 'search.filter', filters: { supportGroupId: chosen ? Number(chosen) : null } })}
          />
        </FilterFold>
      </div>
      {search.error ? (
        <ErrorState message={errorText} onRetry={() => search.send({ type: 'search.reload' })} />
      ) : !result ? (
        <ListSkeleton />
      ) : result.totalCount === 0 ? (
        <EmptyState title={t(`desk.empty.${kind}`)}>{t('desk.emptyHint')}</EmptyState>
      ) : (
        <>
          <TicketList
            desk
            groupsWithoutAgents={withoutAgents}
            rows={result.data}
            unread={unread}
            sort={search.sort}
            onSort={(sort) => search.send({ type: 'search.sort', orderBy: orderByOf(sort) })}
            busy={search.busy}
            rowAction={(ticket) =>
              ticket.statusId === ticketStatuses.Open && kind !== 'forOthers' ? (
                <Button
                  size="sm"
                  onClick={() => void claim(ticket)}
                  loading={claiming === ticket.ticketId}
                  aria-label={t('desk.claimNamed', { id: ticket.ticketId })}
                >
                  {t('actions.claim')}
                </Button>
              ) : null
            }
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
  );
}

const noGroups: SupportGroup[] = [];

/** The support desk: the queues of your groups (every ticket for support admins) and the tickets you raised for others. */
export default function SupportDeskPage() {
  const { t } = useTranslation('tickets');
  const isSupportAdmin = useHasPermission(P.SupportTickets.Administer);
  // null until the groups have answered (an empty list when they could not be read).
  const [groups, setGroups] = useState<SupportGroup[] | null>(null);
  // The tab is part of the URL like the list's own filters; another tab starts a fresh list.
  const [params, setParams] = useSearchParams();

  useEffect(() => {
    (isSupportAdmin ? supportGroupsApi.list() : supportGroupsApi.mine()).then(setGroups, () => setGroups([]));
  }, [isSupportAdmin]);

  const tabs: DeskTab[] = isSupportAdmin ? ['desk', 'all', 'forOthers'] : ['desk', 'forOthers'];
  const asked = params.get('tab') as DeskTab | null;
  const tab: DeskTab = asked && tabs.includes(asked) ? asked : 'desk';
  const setTab = (next: DeskTab) => {
    if (next !== tab) setParams(next === 'desk' ? {} : { tab: next });
  };
  return (
    <section aria-labelledby="desk-title">
      <PageHeader id="desk-title" title={t('desk.title')} description={isSupportAdmin ? t('desk.descriptionAdmin') : t('desk.description')} />
      {isSupportAdmin ? <NoAgentsWarning groups={groups ?? noGroups} /> : null}
      {/* A support admin's warning about groups without agents stands above the tabs and comes
          with the groups' own request. Until that answers, the tabs (their list's request already
          on its way) are laid out but not shown, so the warning arriving moves nothing on the
          screen (layout shift, issue 22, docs/decisions/0293). */}
      <div className={isSupportAdmin && groups === null ? css({ visibility: 'hidden' }) : undefined}>
        <Tabs label={t('desk.tabs')} value={tab} onChange={setTab} tabs={tabs.map((id) => ({ value: id, label: t(`desk.tab.${id}`) }))}>
          {(kind) => <DeskList key={kind} kind={kind} groups={groups ?? noGroups} />}
        </Tabs>
      </div>
    </section>
  );
}
