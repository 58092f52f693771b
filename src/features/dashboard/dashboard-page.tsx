import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { useHasPermission } from '#src/app/use-permission.ts';

// A candidate's registrations and their state (issue 18): its own chunk, fetched after the
// dashboard's first content and only for a signed-in user (docs/decisions/0238).
const Registrations = lazy(() => import('#src/features/seasons/index.ts').then((m) => ({ default: m.DashboardRegistrations })));

export default function DashboardPage() {
  const { t } = useTranslation();
  const signedIn = useHasPermission(P.Dashboard.View);
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '2' })}>
        {t('dashboard.title')}
      </h1>
      <div className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border', borderRadius: 'lg', p: '6' })}>
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>{t('dashboard.welcome')}</h2>
        <p className={css({ color: 'fg.muted', mt: '1' })}>{t('dashboard.intro')}</p>
      </div>
      {signedIn ? (
        <Suspense fallback={null}>
          <Registrations />
        </Suspense>
      ) : null}
    </section>
  );
}
