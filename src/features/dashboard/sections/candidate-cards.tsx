import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { useFormat } from '#src/lib/format.ts';
import { deliveryApi } from '#src/features/delivery/index.ts';
import { DashboardRegistrations, registrationsApi } from '#src/features/seasons/index.ts';
import { dashboardApi, statusNames } from '../api/dashboard-api.ts';
import { cardGrid, cardList, cardRow, DashboardCard, muted } from '../components/dashboard-card.tsx';

const FINISHED = new Set(['Submitted', 'TimeUp', 'Terminated']);
const MINUTE = 60_000;

/** "2 d 3 h", "3 h 5 min", "12 min": the time until `at`, coarse enough to read at a glance. */
export function countdownParts(at: number, now: number): { days: number; hours: number; minutes: number } {
  const left = Math.max(0, at - now);
  const minutes = Math.floor(left / MINUTE);
  return { days: Math.floor(minutes / 1440), hours: Math.floor((minutes % 1440) / 60), minutes: minutes % 60 };
}

function Countdown({ startsAt }: { startsAt: string }) {
  const { t } = useTranslation('dashboard');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const at = Date.parse(startsAt);
  if (at <= now) return <Badge tone="success">{t('candidate.papers.open')}</Badge>;
  const { days, hours, minutes } = countdownParts(at, now);
  const text =
    days > 0
      ? t('candidate.papers.inDays', { days, hours })
      : hours > 0
        ? t('candidate.papers.inHours', { hours, minutes })
        : t('candidate.papers.inMinutes', { minutes });
  return (
    <Badge tone="info" testId="paper-countdown">
      {text}
    </Badge>
  );
}

/** A candidate's dashboard (issue 21): the papers the server lets them sit (finished ones left out), registrations, published results, and their tickets with unread replies. */
export default function CandidateCards() {
  const { t } = useTranslation('dashboard');
  const format = useFormat();
  return (
    <div className={cardGrid} data-testid="dashboard-candidate">
      <DashboardCard
        id="upcoming-papers"
        title={t('candidate.papers.title')}
        to="/sit"
        linkLabel={t('candidate.papers.all')}
        load={async () => (await deliveryApi.sittings()).filter((s) => !FINISHED.has(s.status ?? ''))}
      >
        {(papers) =>
          papers.length ? (
            <ul className={cardList}>
              {papers.slice(0, 5).map((p) => (
                <li key={`${p.registrationId}-${p.seasonPaperId}`} className={cardRow} data-testid="upcoming-paper">
                  <span className={css({ fontWeight: 'medium' })}>{p.paperTitle}</span>
                  <span className={muted}>
                    {p.examName} · {format.dateTime(p.startsAt)}
                  </span>
                  <Countdown startsAt={p.startsAt} />
                  <Link to="/registrations/mine" className={css({ color: 'primary.main', textDecoration: 'underline' })}>
                    {t('candidate.papers.admitCard')}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className={muted}>{t('candidate.papers.none')}</p>
          )
        }
      </DashboardCard>
      <DashboardCard
        id="registrations"
        title={t('candidate.registrations.title')}
        to="/registrations/mine"
        linkLabel={t('candidate.registrations.all')}
        load={registrationsApi.mine}
      >
        {(rows) => (rows.length ? <DashboardRegistrations rows={rows} /> : <p className={muted}>{t('candidate.registrations.none')}</p>)}
      </DashboardCard>
      <DashboardCard id="results" title={t('candidate.results.title')} to="/results" linkLabel={t('candidate.results.all')} load={dashboardApi.myResults}>
        {(mine) =>
          mine.results.length ? (
            <div className={css({ display: 'grid', gap: '2' })}>
              <p className={muted} data-testid="my-results-summary">
                {t('candidate.results.summary', { count: mine.total })}
              </p>
              <ul className={cardList}>
                {mine.results.map((r) => (
                  <li key={r.resultId} className={cardRow} data-testid="my-result">
                    <Link to={`/results?result=${r.resultId}`} className={css({ fontWeight: 'medium', color: 'primary.main' })}>
                      {r.paperTitle}
                    </Link>
                    <span className={muted}>{r.examName}</span>
                    <span>{t('candidate.results.score', { percent: format.number(r.percent, { maximumFractionDigits: 1 }), grade: r.grade ?? '—' })}</span>
                    <Badge tone={r.passed ? 'success' : 'warning'}>{t(r.passed ? 'candidate.results.passed' : 'candidate.results.failed')}</Badge>
                    {r.status !== 'Published' ? <Badge tone="info">{t(`candidate.results.status.${r.status}`)}</Badge> : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className={muted}>{t('candidate.results.none')}</p>
          )
        }
      </DashboardCard>
      <DashboardCard
        id="my-tickets"
        title={t('candidate.tickets.title')}
        to="/tickets"
        linkLabel={t('candidate.tickets.all')}
        load={dashboardApi.myTickets}
        liveTickets
      >
        {(mine) => (
          <div className={css({ display: 'grid', gap: '2' })}>
            <p className={muted} data-testid="my-tickets-summary">
              {t('candidate.tickets.summary', { count: mine.openCount, unread: mine.unreadTotal })}
            </p>
            {mine.tickets.length ? (
              <ul className={cardList}>
                {mine.tickets.map((ticket) => (
                  <li key={ticket.ticketId} className={cardRow}>
                    <Link to={`/tickets/${ticket.ticketId}`} className={css({ fontWeight: 'medium', color: 'primary.main' })}>
                      #{ticket.ticketId} {ticket.title}
                    </Link>
                    <Badge tone="neutral">{t(`status.${statusNames[ticket.statusId]}`)}</Badge>
                    {ticket.unreadCount > 0 ? (
                      <Badge tone="warning" testId={`unread-${ticket.ticketId}`}>
                        {t('candidate.tickets.unread', { count: ticket.unreadCount })}
                      </Badge>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        )}
      </DashboardCard>
    </div>
  );
}
