import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

const box = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '2',
  py: '10',
  px: '4',
  textAlign: 'center',
  color: 'fg.muted',
});

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation('ui');
  return (
    <div className={box}>
      <Spinner size="lg" label={label ?? t('loading')} />
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: ReactNode; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className={box} data-testid="empty-state">
      <p className={css({ fontWeight: 'semibold', color: 'fg.default' })}>{title}</p>
      {children ? <p className={css({ fontSize: 'sm' })}>{children}</p> : null}
      {action}
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
