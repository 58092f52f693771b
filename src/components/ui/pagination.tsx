import { Pagination as ArkPagination } from '@ark-ui/react/pagination';
import { useTranslation } from 'react-i18next';
import { sva } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';
import { DeferredSelectField } from './deferred-select.tsx';
import { useDir } from './use-dir.ts';

export const pageSizes = [10, 25, 50, 100] as const;

export const paginationRecipe = sva({
  slots: ['root', 'range', 'controls', 'pages', 'item', 'trigger', 'ellipsis'],
  base: {
    root: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '3', py: '3' },
    range: { fontSize: 'sm', color: 'fg.muted' },
    controls: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '3' },
    pages: { display: 'flex', alignItems: 'center', gap: '1' },
    item: {
      minWidth: '9',
      height: '9',
      px: '2',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'transparent',
      fontSize: 'sm',
      cursor: 'pointer',
      _hover: { bg: 'bg.hover' },
      _selected: { borderColor: 'primary.main', bg: 'primary.lighter', color: 'primary.dark', fontWeight: 'semibold' },
      _disabled: { cursor: 'not-allowed', opacity: 0.6 },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
    },
    trigger: {
      height: '9',
      px: '3',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border.strong',
      fontSize: 'sm',
      fontWeight: 'medium',
      cursor: 'pointer',
      bg: 'bg.surface',
      _hover: { bg: 'bg.hover' },
      _disabled: { cursor: 'not-allowed', opacity: 0.5, _hover: { bg: 'bg.surface' } },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
    },
    ellipsis: { px: '1', color: 'fg.muted' },
  },
});

export interface PaginationProps {
  page: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
  onPage: (page: number) => void;
  onPageSize?: (size: number) => void;
  disabled?: boolean;
}

/**
 * "1–10 of 245", previous/next, the page numbers (Ark UI Pagination: each a button, the current
 * one marked aria-current) and the page size (spec §3 paging).
 */
export function Pagination({ page, pageSize, totalCount, totalPages, onPage, onPageSize, disabled }: PaginationProps) {
  const { t } = useTranslation('ui');
  const format = useFormat();
  const dir = useDir();
  const classes = paginationRecipe();
  const from = totalCount === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(totalCount, page * pageSize);
  // While a page loads, nothing starts another request.
  const off = disabled ? { disabled: true } : {};
  return (
    <ArkPagination.Root
      className={classes.root}
      count={totalCount}
      pageSize={pageSize}
      page={page}
      siblingCount={1}
      dir={dir}
      onPageChange={(details) => onPage(details.page)}
      translations={{
        rootLabel: t('pagination'),
        prevTriggerLabel: t('previous'),
        nextTriggerLabel: t('next'),
        itemLabel: ({ page: item, totalPages: pages }) => t('pageOf', { page: format.number(item), pages: format.number(Math.max(1, pages)) }),
      }}
    >
      <p className={classes.range} aria-live="polite">
        {t('range', { from: format.number(from), to: format.number(to), total: format.number(totalCount) })}
      </p>
      <div className={classes.controls}>
        {onPageSize ? (
          <DeferredSelectField
            layout="inline"
            label={t('pageSize')}
            value={String(pageSize)}
            disabled={disabled}
            options={pageSizes.map((size) => ({ value: String(size), label: format.number(size) }))}
            onValueChange={(size) => size && onPageSize(Number(size))}
          />
        ) : null}
        <div className={classes.pages}>
          <ArkPagination.PrevTrigger className={classes.trigger} {...off}>
            {t('previous')}
          </ArkPagination.PrevTrigger>
          <ArkPagination.Context>
            {(api) =>
              // More than one page: the numbers; otherwise the one page says nothing new.
              totalPages > 1
                ? api.pages.map((item, index) =>
                    item.type === 'page' ? (
                      <ArkPagination.Item key={`page-${item.value}`} {...item} className={classes.item} {...off}>
                        {format.number(item.value)}
                      </ArkPagination.Item>
                    ) : (
                      <ArkPagination.Ellipsis key={`gap-${index}`} index={index} className={classes.ellipsis}>
                        …
                      </ArkPagination.Ellipsis>
                    ),
                  )
                : null
            }
          </ArkPagination.Context>
          <ArkPagination.NextTrigger className={classes.trigger} {...off}>
            {t('next')}
          </ArkPagination.NextTrigger>
        </div>
      </div>
    </ArkPagination.Root>
  );
}
