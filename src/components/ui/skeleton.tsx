import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';

/**
 * Skeletons (issue 23): grey shapes where the list or page will be, instead of a spinner in an
 * empty page, so the layout does not jump when the content arrives. One `status` with a label
 * for screen readers; the shapes are decorative.
 */
const bone = css({
  display: 'block',
  borderRadius: 'sm',
  bg: 'bg.subtle',
  animation: 'pulse 1.6s ease-in-out infinite',
  '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
});

const widths = ['70%', '45%', '60%', '35%', '55%'];

/** One grey bar. */
export function Bone({ width = '100%', height = '0.9rem', className }: { width?: string; height?: string; className?: string }) {
  return <span aria-hidden="true" className={cx(bone, className)} style={{ width, height }} />;
}

/** Rows of a table or card list while its first page loads. */
export function ListSkeleton({ label, columns = 4, rows = 5, testId = 'list-skeleton' }: { label?: string; columns?: number; rows?: number; testId?: string }) {
  const { t } = useTranslation('ui');
  return (
    <div role="status" aria-label={label ?? t('loading')} aria-busy="true" data-testid={testId} className={css({ px: '3', py: '2' })}>
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className={css({ display: 'flex', gap: '4', alignItems: 'center', py: '3', borderBottomWidth: '1px', borderColor: 'border' })}>
          {Array.from({ length: columns }, (_, column) => (
            <span key={column} className={css({ flex: '1', minWidth: 0, display: { base: column > 1 ? 'none' : 'block', sm: 'block' } })}>
              <Bone width={widths[(row + column) % widths.length]} />
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}

/** A page's heading and a card of lines while the page's code or data is on its way. */
export function PageSkeleton({ label }: { label?: string }) {
  const { t } = useTranslation('ui');
  return (
    <div
      role="status"
      aria-label={label ?? t('loading')}
      aria-busy="true"
      data-testid="page-skeleton"
      className={css({ display: 'flex', flexDirection: 'column', gap: '4', py: '2' })}
    >
      <Bone width="16rem" height="1.75rem" />
      <Bone width="24rem" height="0.9rem" className={css({ maxWidth: '100%' })} />
      <div
        className={css({
          bg: 'bg.surface',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'lg',
          p: '4',
          display: 'flex',
          flexDirection: 'column',
          gap: '3',
        })}
      >
        {widths.map((width, index) => (
          <Bone key={index} width={width} />
        ))}
      </div>
    </div>
  );
}
