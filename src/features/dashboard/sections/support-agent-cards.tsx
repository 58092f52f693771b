import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { useFormat } from '#src/lib/format.ts';
import { dashboardApi, statusNames, type TicketLine } from '../api/dashboard-api.ts';
import { cardGrid, cardList, cardRow, DashboardCard, Figures, muted } from '../components/dashboard-card.tsx';

/** Statuses an agent's queue shows (the closed ones are history). */
const QUEUE_STATUSES = [1, 2, 3, 4, 5];

export function TicketRows<T extends TicketLine>({ tickets, when }: { tickets: T[]; when: (ticket: T) => string }) {
  const { t } = useTranslation('dashboard');
  return (
    <ul className={cardList}>
      {tickets.map((ticket) => (
        <li key={ticket.ticketId} className={cardRow} data-testid={`ticket-row-${ticket.ticketId}`}>
          <Link to={`/support/tickets/${ticket.ticketId}`} className={css({ fontWeight: 'medium', color: 'primary.main' })}>
            #{ticket.ticketId} {ticket.title}
          </Link>
          <Badge tone="neutral">{t(`status.${statusNames[ticket.statusId]}`)}</Badge>
          <span className={muted}>
            {ticket.supportGroupName} · {when(ticket)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A support agent's dashboard (issue 21): their queue by status, what waits on them, what is new in their groups. */
export default function SupportAgentCards() {
  const { t } = useTranslation('dashboard');
  const format = useFormat();
  return (
    <div className={cardGrid} data-testid="dashboard-support-agent">
      <DashboardCard id="my-queue" title={t('agent.queue.title')} to="/support" linkLabel={t('agent.queue.all')} load={dashboardApi.queue} liveTickets>
        {(queue) => (
          <div className={css({ display: 'grid', gap: '2' })}>
            <p className={muted}>{t('agent.queue.total', { count: queue.total })}</p>
            <Figures
              testId="queue-status"
              items={queue.byStatus
                .filter((s) => QUEUE_STATUSES.includes(s.statusId))
                .map((s) => ({ key: statusNames[s.statusId], label: t(`status.${statusNames[s.statusId]}`), value: s.count }))}
            />
          </div>
        )}
      </DashboardCard>
      <DashboardCard
        id="waiting-on-me"
        title={t('agent.waiting.title')}
        to="/support"
        linkLabel={t('agent.waiting.all')}
        load={dashboardApi.waiting}
        liveTickets
      >
        {(waiting) =>
          waiting.tickets.length ? (
            <div className={css({ display: 'grid', gap: '2' })}>
              <p className={muted}>{t('agent.waiting.total', { count: waiting.total })}</p>
              <TicketRows tickets={waiting.tickets} when={(ticket) => t('agent.waiting.since', { age: format.relative(ticket.waitingSince) })} />
            </div>
          ) : (
            <p className={muted}>{t('agent.waiting.none')}</p>
          )
        }
      </DashboardCard>
      <DashboardCard id="new-in-groups" title={t('agent.new.title')} to="/support" linkLabel={t('agent.new.all')} load={dashboardApi.newInGroups} liveTickets>
        {(fresh) =>
          fresh.tickets.length ? (
            <div className={css({ display: 'grid', gap: '2' })}>
              <p className={muted}>{t('agent.new.total', { count: fresh.total })}</p>
              <TicketRows tickets={fresh.tickets} when={(ticket) => t('agent.new.raised', { age: format.relative(ticket.createdAt) })} />
            </div>
          ) : (
            <p className={muted}>{t('agent.new.none')}</p>
          )
        }
      </DashboardCard>
    </div>
  );
}
