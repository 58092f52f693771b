import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';

export default function DashboardPage() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '2' })}>
        {t('dashboard.title')}
      </h1>
      <div className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border', borderRadius: 'lg', p: '6' })}>
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>{t('dashboard.welcome')}</h2>
        <p className={css({ color: 'fg.muted', mt: '1' })}>{t('dashboard.intro')}</p>
      </div>
    </section>
  );
}
