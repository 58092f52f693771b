import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { whenContentRendered } from '#src/app/content-rendered.tsx';
import { featurePage } from '#src/app/routing/lazy-route.ts';

// The role's cards are one chunk of their own, reached through the page-modules table (no
// preload list here) and only asked for once this page's first content is on screen: the first
// render of `/` carries none of them (docs/decisions/0265).
const loadCards = featurePage('dashboard/dashboard-cards-page.tsx');
const DashboardCards = lazy(async () => ({ default: (await loadCards()).Component }));

export default function DashboardPage() {
  const { t } = useTranslation();
  const [cards, setCards] = useState(false);
  useEffect(() => {
    let current = true;
    void whenContentRendered().then(() => current && setCards(true));
    return () => {
      current = false;
    };
  }, []);
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '2' })}>
        {t('dashboard.title')}
      </h1>
      <div className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border', borderRadius: 'lg', p: '6' })}>
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>{t('dashboard.welcome')}</h2>
        <p className={css({ color: 'fg.muted', mt: '1' })}>{t('dashboard.intro')}</p>
      </div>
      {cards ? (
        <Suspense fallback={null}>
          <DashboardCards />
        </Suspense>
      ) : null}
    </section>
  );
}
