import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Spinner } from '#src/components/ui/spinner.tsx';

/** The loading state of a route whose code is on its way (the same as the shell's). */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', py: '16' })}>
      <Spinner size="lg" label={t('shell.loading')} />
    </div>
  );
}
