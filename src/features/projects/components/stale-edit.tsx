import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';

/** The 409 body of an edit made on an older version (server/lib/concurrency.ts, docs/decisions/0094). */
export interface StaleEdit {
  statusCode: 409;
  messages?: string[];
  currentVersion: number;
  changedBy: { userId: string; name: string } | null;
  changedAt: string;
}

export function isStaleEdit(error: unknown): error is StaleEdit {
  const e = error as Partial<StaleEdit> | null;
  return !!e && typeof e === 'object' && e.statusCode === 409 && typeof e.currentVersion === 'number';
}

const box = css({
  display: 'grid',
  gap: '2',
  p: '3',
  borderWidth: '1px',
  borderColor: 'warning.light',
  borderRadius: 'md',
  bg: 'warning.lighter',
  color: 'warning.darker',
  fontSize: 'sm',
});

/**
 * Someone saved the record while this user edited it: say who and when, keep the user's input
 * in the form, and offer the two ways on — see their version (drops the input) or save the
 * input over it (on the version now stored).
 */
export function StaleEditNotice({
  conflict,
  onLoadLatest,
  onOverwrite,
  busy,
}: {
  conflict: StaleEdit;
  onLoadLatest: () => void;
  onOverwrite: () => void;
  busy?: boolean;
}) {
  const { t } = useTranslation('projects');
  const detail = useErrorText(conflict);
  return (
    <div role="alert" className={box} data-testid="stale-edit">
      <p className={css({ fontWeight: 'semibold' })}>{t('stale.title', { name: conflict.changedBy?.name ?? t('stale.someone') })}</p>
      <p>{t('stale.kept')}</p>
      {detail ? <p className={css({ fontSize: 'xs' })}>{detail}</p> : null}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button size="sm" variant="outline" onClick={onLoadLatest} disabled={busy} data-testid="stale-load-latest">
          {t('stale.loadLatest')}
        </Button>
        <Button size="sm" onClick={onOverwrite} loading={busy} data-testid="stale-overwrite">
          {t('stale.overwrite')}
        </Button>
      </div>
    </div>
  );
}
