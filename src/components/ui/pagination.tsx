import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';
import { Button } from './button.tsx';
import { controlStyle } from './field.tsx';

export const pageSizes = [10, 25, 50, 100] as const;

export interface PaginationProps {
  page: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
  onPage: (page: number) => void;
  onPageSize?: (size: number) => void;
  disabled?: boolean;
}

/** "1–10 of 245", previous/next, and the page size (spec §3 paging). */
export function Pagination({ page, pageSize, totalCount, totalPages, onPage, onPageSize, disabled }: PaginationProps) {
  const { t } = useTranslation('ui');
  const format = useFormat();
  const from = totalCount === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(totalCount, page * pageSize);
  return (
    <nav aria-label={t('pagination')} className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '3', py: '3' })}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite">
        {t('range', { from: format.number(from), to: format.number(to), total: format.number(totalCount) })}
      </p>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
        {onPageSize ? (
          <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
            <span>{t('pageSize')}</span>
            <select
              className={controlStyle}
              style={{ width: 'auto' }}
              value={pageSize}
              disabled={disabled}
              onChange={(event) => onPageSize(Number(event.target.value))}
            >
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {format.number(size)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <Button variant="outline" size="sm" disabled={disabled || page <= 1} onClick={() => onPage(page - 1)}>
          {t('previous')}
        </Button>
        <span className={css({ fontSize: 'sm' })}>{t('pageOf', { page: format.number(page), pages: format.number(Math.max(1, totalPages)) })}</span>
        <Button variant="outline" size="sm" disabled={disabled || page >= totalPages} onClick={() => onPage(page + 1)}>
          {t('next')}
        </Button>
      </div>
    </nav>
  );
}
