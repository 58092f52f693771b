import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { css } from '#styled-system/css';
import { DataTable, type Column, type SortState } from '#src/components/ui/data-table.tsx';
import { useFormat } from '#src/lib/format.ts';
import type { TicketSummary } from '../api/tickets-api.ts';
import { PriorityBadge, StatusBadge } from './ticket-badges.tsx';

export interface TicketListProps {
  rows: readonly TicketSummary[];
  /** The desk shows who raised and who holds each ticket. */
  desk?: boolean;
  sort: SortState | null;
  onSort: (sort: SortState) => void;
  busy?: boolean;
  /** Extra cell at the end of each row (e.g. a claim button in the queue). */
  rowAction?: (ticket: TicketSummary) => React.ReactNode;
}

export function TicketList({ rows, desk = false, sort, onSort, busy, rowAction }: TicketListProps) {
  const { t } = useTranslation('tickets');
  const format = useFormat();
  const columns: Column<TicketSummary>[] = [
    { key: 'id', header: t('column.number'), sortKey: 'ticketId', cell: (row) => <span className={css({ fontVariantNumeric: 'tabular-nums' })}>#{row.ticketId}</span> },
    {
      key: 'title',
      header: t('column.title'),
      sortKey: 'title',
      cell: (row) => (
        <Link href={`/tickets/${row.ticketId}`} className={css({ color: 'primary.dark', fontWeight: 'semibold', textDecoration: 'underline', textUnderlineOffset: '2px' })}>
          {row.title}
        </Link>
      ),
    },
    { key: 'status', header: t('column.status'), sortKey: 'statusId', cell: (row) => <StatusBadge statusId={row.statusId} /> },
    { key: 'priority', header: t('column.priority'), sortKey: 'priority', cell: (row) => <PriorityBadge priorityId={row.supportTicketPriorityId} />, hideOnSmall: true },
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
      cell: (row) => <time dateTime={row.lastModifiedOn} title={format.dateTime(row.lastModifiedOn)}>{format.relative(row.lastModifiedOn)}</time>,
    },
    ...(rowAction ? ([{ key: 'action', header: <span className={css({ srOnly: true })}>{t('column.action')}</span>, cell: rowAction, align: 'end' }] as Column<TicketSummary>[]) : []),
  ];
  return <DataTable caption={t('listCaption')} columns={columns} rows={rows} rowKey={(row) => row.ticketId} sort={sort} onSort={onSort} busy={busy} testId="ticket-list" />;
}
