import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import type { Registration } from './api/seasons-api.ts';
import { registrationTone } from './lib/registration-tone.ts';

/**
 * The candidate's registrations on the dashboard (issues 18, 21): each one's exam and season, its
 * state and what it means, and the roll number once given. The dashboard's card (its loader,
 * heading and link to "My registrations") wraps it (docs/decisions/0238, 0266).
 */
export function DashboardRegistrations({ rows }: { rows: Registration[] }) {
  const { t } = useTranslation('seasons');
  return (
    <div data-testid="dashboard-registrations">
      <ul className={css({ display: 'grid', gap: '2', listStyle: 'none', p: '0', m: '0' })}>
        {rows.slice(0, 5).map((r) => (
          <li key={r.registrationId} className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' })}>
            <span className={css({ fontWeight: 'medium' })}>{t('mine.heading', { exam: r.examName, season: r.seasonName })}</span>
            <Badge tone={registrationTone[r.status]} testId={`dashboard-status-${r.registrationId}`}>
              {t(`regStatus.${r.status}`)}
            </Badge>
            <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
              {t(`mine.explain.${r.status}`)}
              {r.rollNumber ? ` · ${t('mine.roll')}: ${r.rollNumber}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
