import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import { useFormat } from '#src/lib/format.ts';
import { dashboardApi, type UsersOverview } from '../api/dashboard-api.ts';
import { cardGrid, cardList, cardRow, DashboardCard, Figures, muted } from '../components/dashboard-card.tsx';

const jobTone = { queued: 'neutral', running: 'info', finished: 'success', failed: 'error' } as const;

/** Users by state; before they are counted, the same four boxes with the labels and no counts. */
function UserFigures({ users }: { users?: UsersOverview }) {
  const { t } = useTranslation('dashboard');
  return (
    <Figures
      testId={users ? 'users-state' : undefined}
      items={[
        { key: 'active', label: t('users.users.active'), value: users?.active ?? null },
        { key: 'awaiting', label: t('users.users.awaiting'), value: users?.awaitingConfirmation ?? null },
        { key: 'locked', label: t('users.users.locked'), value: users?.locked ?? null },
        { key: 'inactive', label: t('users.users.inactive'), value: users?.inactive ?? null },
      ]}
    />
  );
}

/** The administrator's dashboard (issue 21): users by state, bulk uploads, the directory, recent failed sign-ins. */
export default function AdminCards({ show }: { show: { users: boolean; jobs: boolean; directory: boolean; signIns: boolean } }) {
  const { t } = useTranslation('dashboard');
  const format = useFormat();
  return (
    <div className={cardGrid} data-testid="dashboard-admin">
      {show.users ? (
        <DashboardCard
          id="users"
          title={t('users.users.title')}
          to="/users"
          linkLabel={t('users.users.all')}
          load={dashboardApi.users}
          skeleton={<UserFigures />}
        >
          {(users) => <UserFigures users={users} />}
        </DashboardCard>
      ) : null}
      {show.jobs ? (
        <DashboardCard id="bulk-jobs" title={t('users.jobs.title')} to="/users/bulk-upload" linkLabel={t('users.jobs.all')} load={dashboardApi.bulkJobs}>
          {(jobs) =>
            jobs.recent.length ? (
              <ul className={cardList}>
                {jobs.recent.map((job) => (
                  <li key={job.jobId} className={cardRow}>
                    <span className={css({ fontWeight: 'medium' })}>{job.fileName}</span>
                    <Badge tone={jobTone[job.state as keyof typeof jobTone] ?? 'neutral'}>
                      {t(`users.jobs.state.${job.state}`, { defaultValue: job.state })}
                    </Badge>
                    <span className={muted}>
                      {format.dateTime(job.createdAt)} · {t('users.jobs.counts', { created: job.createdCount, failed: job.failedCount })}
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className={muted}>{t('users.jobs.none')}</p>
            )
          }
        </DashboardCard>
      ) : null}
      {show.directory ? (
        <DashboardCard id="directory" title={t('users.directory.title')} to="/users" linkLabel={t('users.directory.all')} load={dashboardApi.directory}>
          {(directory) => (
            <div className={css({ display: 'grid', gap: '2' })}>
              <p data-testid="directory-configured">
                <Badge tone={directory.configured ? 'success' : 'neutral'}>
                  {directory.configured ? t('users.directory.configured') : t('users.directory.notConfigured')}
                </Badge>
              </p>
              <p className={muted}>{t('users.directory.counts', { directory: directory.directoryUsers, local: directory.localUsers })}</p>
            </div>
          )}
        </DashboardCard>
      ) : null}
      {show.signIns ? (
        <DashboardCard
          id="sign-in-failures"
          title={t('users.failures.title')}
          to="/login-history"
          linkLabel={t('users.failures.all')}
          load={dashboardApi.signInFailures}
        >
          {(failures) => (
            <div className={css({ display: 'grid', gap: '2' })}>
              <p className={muted} data-testid="failures-last-day">
                {t('users.failures.lastDay', { count: failures.lastDay })}
              </p>
              {failures.recent.length ? (
                <ul className={cardList}>
                  {failures.recent.map((f, i) => (
                    <li key={`${f.occurredAt}-${i}`} className={cardRow}>
                      <span className={css({ fontWeight: 'medium' })}>{f.email}</span>
                      <span className={muted}>
                        {format.relative(f.occurredAt)}
                        {f.reason ? ` · ${f.reason}` : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          )}
        </DashboardCard>
      ) : null}
    </div>
  );
}
