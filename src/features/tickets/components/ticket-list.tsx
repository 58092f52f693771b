import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { DataTable, type Column, type SortState } from '#src/components/ui/data-table.tsx';
import { useFormat } from '#src/lib/format.ts';
import type { TicketSummary } from '../api/tickets-api.ts';
import { PriorityBadge, StatusBadge } from './ticket-badges.tsx';
import { Badge } from '#src/components/ui/badge.tsx';
import { ticketStatuses } from '#machines/ticket-lifecycle.machine.ts';

export interface TicketListProps {
  rows: readonly TicketSummary[];
  /** The desk shows who raised and who holds each ticket, and opens tickets under /support (drawer and breadcrumbs stay on the desk). */
  desk?: boolean;
  sort: SortState | null;
  onSort: (sort: SortState) => void;
  busy?: boolean;
  /** Extra cell at the end of each row (e.g. a claim button in the queue). */
  rowAction?: (ticket: TicketSummary) => React.ReactNode;
  /** Unread chat messages per ticket (absent: none). */
  unread?: Record<number, number>;
  /** Support groups with no agent (support admins' desk): their open tickets are flagged (issue 23). */
  groupsWithoutAgents?: ReadonlySet<number>;
}

export function TicketList({ rows, desk = false, sort, onSort, busy, rowAction, unread, groupsWithoutAgents }: TicketListProps) {
  const { t } = useTranslation('tickets');
  const { t: tChat } = useTranslation('chat');
  const format = useFormat();
  const columns: Column<TicketSummary>[] = [
    {
      key: 'id',
      header: t('column.number'),
      sortKey: 'ticketId',
      cell: (row) => <span className={css({ fontVariantNumeric: 'tabular-nums' })}>#{row.ticketId}</span>,
    },
    {
      key: 'title',
      header: t('column.title'),
      sortKey: 'title',
      cell: (row) => (
        <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
          <Link
            to={desk ? `/support/tickets/${row.ticketId}` : `/tickets/${row.ticketId}`}
            className={css({ color: 'primary.dark', fontWeight: 'semibold', textDecoration: 'underline', textUnderlineOffset: '2px' })}
          >
            {row.title}
          </Link>
          {unread?.[row.ticketId] ? (
            <span
              className={css({
                display: 'inline-flex',
                alignItems: 'center',
                minWidth: '5',
                px: '1.5',
                borderRadius: 'full',
                bg: 'primary.main',
                color: 'primary.contrast',
                fontSize: 'xs',
                fontWeight: 'bold',
                justifyContent: 'center',
              })}
              data-testid="unread-count"
              title={tChat('unread', { count: unread[row.ticketId] })}
            >
              <span aria-hidden="true">{unread[row.ticketId]}</span>
              <span className={css({ srOnly: true })}>{tChat('unread', { count: unread[row.ticketId] })}</span>
            </span>
          ) : null}
          {groupsWithoutAgents?.has(row.supportGroupId) && row.statusId === ticketStatuses.Open ? (
            <span data-testid="no-agents-flag">
              <Badge tone="warning">{t('groups.ticketNoAgents')}</Badge>
            </span>
          ) : null}
        </span>
      ),
    },
    { key: 'status', header: t('column.status'), sortKey: 'statusId', cell: (row) => <StatusBadge statusId={row.statusId} /> },
    {
      key: 'priority',
      header: t('column.priority'),
      sortKey: 'priority',
      cell: (row) => <PriorityBadge priorityId={row.supportTicketPriorityId} />,
      hideOnSmall: true,
    },
    { key: 'group', header: t('column.group'), cell: (row) => row.supportGroupName, hideOnSmall: true },
    ...(desk
      ? ([
          { key: 'requester', header: t('column.requester'), cell: (row) => row.requesterName, hideOnSmall: true },
          { key: 'assignee', header: t('column.assignee'), cell: (row) => row.assigneeName ?? t('unassigned'), hideOnSmall: true },
        ] as Column<TicketSummary>[])
      : []),
    {
      key: 'updated',
      header: t('column.updated'),
      sortKey: 'lastModifiedOn',
      hideOnSmall: true,
      cell: (row) => (
        <time dir="auto" dateTime={row.lastModifiedOn} title={format.dateTime(row.lastModifiedOn)}>
          {format.relative(row.lastModifiedOn)}
        </time>
      ),
    },
    ...(rowAction
      ? ([
          { key: 'action', header: <span className={css({ srOnly: true })}>{t('column.action')}</span>, cell: rowAction, align: 'end' },
        ] as Column<TicketSummary>[])
      : []),
  ];
  return (
    <DataTable
      caption={t('listCaption')}
      columns={columns}
      rows={rows}
      rowKey={(row) => row.ticketId}
      sort={sort}
      onSort={onSort}
      busy={busy}
      testId="ticket-list"
    />
  );
}
