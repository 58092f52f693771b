import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';
import { dashboardApi, statusNames } from '../api/dashboard-api.ts';
import { cardGrid, DashboardCard, Figures, muted } from '../components/dashboard-card.tsx';
import { ResolvedPerDay } from '../components/resolved-per-day.tsx';
import { TicketRows } from './support-agent-cards.tsx';

// The chart library comes with the chart only, once the card's figures are on screen and the card
// near the screen (issue 21: "charts load after the first content"; issue 22).

/** Statuses of work still at the desk, then the resolved. */
const DESK_STATUSES = [1, 2, 3, 4, 5];
const cell = css({ px: '2', py: '1', textAlign: 'end', borderBottomWidth: '1px', borderColor: 'border', fontVariantNumeric: 'tabular-nums' });
const head = css({
  px: '2',
  py: '1',
  textAlign: 'end',
  fontSize: 'xs',
  color: 'fg.muted',
  fontWeight: 'semibold',
  borderBottomWidth: '1px',
  borderColor: 'border',
});

/** A support administrator's dashboard (issue 21): the desk by status and group, the oldest open, resolutions per day. */
export default function SupportAdminCards() {
  const { t } = useTranslation('dashboard');
  const format = useFormat();
  return (
    <div className={cardGrid} data-testid="dashboard-support-admin">
      <DashboardCard
        id="desk-by-status"
        title={t('admin.desk.title')}
        to="/support"
        linkLabel={t('admin.desk.all')}
        load={dashboardApi.deskOverview}
        liveTickets
      >
        {(desk) => (
          <div className={css({ display: 'grid', gap: '3' })}>
            <Figures
              testId="desk-status"
              items={desk.byStatus
                .filter((s) => DESK_STATUSES.includes(s.statusId))
                .map((s) => ({ key: statusNames[s.statusId], label: t(`status.${statusNames[s.statusId]}`), value: s.count }))}
            />
            {/* On a phone the table scrolls sideways: the scrolling box takes the focus so the keyboard can scroll it too. */}
            <div
              role="region"
              aria-label={t('admin.desk.byGroup')}
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe's scrollable-region-focusable asks for exactly this
              tabIndex={0}
              className={css({ overflowX: 'auto', _focusVisible: { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '2px' } })}
            >
              <table className={css({ width: '100%', fontSize: 'sm', borderCollapse: 'collapse' })} data-testid="desk-by-group">
                <caption className={css({ srOnly: true })}>{t('admin.desk.byGroup')}</caption>
                <thead>
                  <tr>
                    <th
                      scope="col"
                      className={css({
                        px: '2',
                        py: '1',
                        textAlign: 'start',
                        fontSize: 'xs',
                        color: 'fg.muted',
                        borderBottomWidth: '1px',
                        borderColor: 'border',
                      })}
                    >
                      {t('admin.desk.group')}
                    </th>
                    {DESK_STATUSES.map((id) => (
                      <th key={id} scope="col" className={head}>
                        {t(`status.${statusNames[id]}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {desk.groups.map((group) => (
                    <tr key={group.supportGroupId}>
                      <th
                        scope="row"
                        className={css({ px: '2', py: '1', textAlign: 'start', fontWeight: 'medium', borderBottomWidth: '1px', borderColor: 'border' })}
                      >
                        {group.name}
                      </th>
                      {DESK_STATUSES.map((id) => (
                        <td key={id} className={cell}>
                          {group.byStatus.find((s) => s.statusId === id)?.count ?? 0}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </DashboardCard>
      <DashboardCard
        id="oldest-open"
        title={t('admin.oldest.title')}
        to="/support"
        linkLabel={t('admin.oldest.all')}
        load={dashboardApi.deskOverview}
        liveTickets
      >
        {(desk) =>
          desk.oldestOpen.length ? (
            <TicketRows tickets={desk.oldestOpen} when={(ticket) => t('admin.oldest.raised', { age: format.relative(ticket.createdAt) })} />
          ) : (
            <p className={muted}>{t('admin.oldest.none')}</p>
          )
        }
      </DashboardCard>
      <DashboardCard
        id="resolved-per-day"
        title={t('admin.resolved.title')}
        to="/support"
        linkLabel={t('admin.resolved.all')}
        load={() => dashboardApi.resolvedPerDay(14)}
        liveTickets
      >
        {(days) => (
          <div className={css({ display: 'grid', gap: '2' })}>
            <p className={muted} data-testid="resolved-total">
              {t('admin.resolved.total', { count: days.reduce((n, d) => n + d.count, 0), days: days.length })}
            </p>
            <ResolvedPerDay days={days} />
          </div>
        )}
      </DashboardCard>
    </div>
  );
}
