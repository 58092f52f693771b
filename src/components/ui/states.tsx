import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from './button.tsx';
import { stateBox as box } from './empty-state.tsx';
import { Spinner } from './spinner.tsx';

// The empty state is its own module: the route access check (first render of every page) shows it without this file's button (docs/decisions/0265).
export { EmptyState } from './empty-state.tsx';

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation('ui');
  return (
    <div className={box}>
      <Spinner size="lg" label={label ?? t('loading')} />
    </div>
  );
}

/** A failed load, with the reason and a retry. */
export function ErrorState({ message, onRetry }: { message?: ReactNode; onRetry?: () => void }) {
  const { t } = useTranslation('ui');
  return (
    <div className={box} role="alert" data-testid="error-state">
      <p className={css({ fontWeight: 'semibold', color: 'error.main' })}>{t('loadFailed')}</p>
      {message ? <p className={css({ fontSize: 'sm' })}>{message}</p> : null}
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          {t('retry')}
        </Button>
      ) : null}
    </div>
  );
}
