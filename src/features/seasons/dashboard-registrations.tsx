import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Badge } from '#src/components/ui/badge.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { registrationsApi, type Registration } from './api/seasons-api.ts';
import { registrationTone } from './lib/registration-tone.ts';

/**
 * The candidate's registrations on the dashboard (issue 18): each one's exam and season, its
 * state and what it means, and the roll number once given; the heading opens "My registrations"
 * (admit cards, cancelling). Nothing is shown to someone with no registration. Loaded lazily by
 * the dashboard, after its first content (docs/decisions/0238).
 */
export function DashboardRegistrations() {
  const { t } = useTranslation('seasons');
  const [rows, setRows] = useState<Registration[] | null>(null);
  useEffect(() => {
    let live = true;
    registrationsApi.mine().then(
      (found) => live && setRows(found),
      () => live && setRows([]),
    );
    return () => {
      live = false;
    };
  }, []);
  if (!rows?.length) return null;
  return (
    <section
      aria-labelledby="dashboard-registrations"
      data-testid="dashboard-registrations"
      className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border', borderRadius: 'lg', p: '6', mt: '4', display: 'grid', gap: '3' })}
    >
      <h2 id="dashboard-registrations" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        <Link to="/registrations/mine">{t('mine.title')}</Link>
      </h2>
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
    </section>
  );
}
