import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { buttonRecipe } from '#src/components/ui/button.tsx';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <section aria-labelledby="not-found-title" className={css({ textAlign: 'center', py: '12' })}>
      <h1 id="not-found-title" className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
        {t('notFound.title')}
      </h1>
      <p className={css({ color: 'fg.muted', my: '3' })}>{t('notFound.text', { path: pathname })}</p>
      <Link to="/" className={buttonRecipe({ variant: 'outline' })}>
        {t('notFound.backHome')}
      </Link>
    </section>
  );
}
